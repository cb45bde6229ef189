"""Links and saved files: the page address's grammar (:mod:`.query`, one reading for the app's
settings and for a shared moment) and the moments and files people pass around (:mod:`.share`).
"""
