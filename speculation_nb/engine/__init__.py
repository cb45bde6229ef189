"""The rules engine: cards, settings, the initial deal, actions, legality, a deal, a session.

A deal (:class:`.game.Game`) is its initial deal (:mod:`.deal`) plus the actions taken
(:mod:`.actions`); :mod:`.legality` says which action the rules refuse and why
(:class:`.errors.IllegalAction`, carrying the rule of ``RULES.md``); :mod:`.settings` holds the
table's settings (:class:`.settings.Rules`: players, variants, antes); :mod:`.session` plays deal
after deal (G1-G4); :mod:`.saving` is the saved form of both; :mod:`.checks` checks numbers at the
door and holds their limits. Nothing here knows of odds, widgets or the shared table.
"""
