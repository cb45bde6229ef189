"""The student's screen at a shared table: join, follow, act for a seat (:mod:`.screen`; its
controls :mod:`.controls`, its drawing of the published moment :mod:`.view`, its look :mod:`.style`).
"""
