"""The teacher's side of the shared table: the "Open the table to the class" panel (:mod:`.panel`,
its look in :mod:`.style`) and the app's game as the referee drives it (:mod:`.app_game`).
"""
