"""The player's app: the screen a teacher projects or a student opens alone
(:mod:`.screen` lays out the views; one module per view).
"""
