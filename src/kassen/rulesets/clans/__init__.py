"""The clan card game (seed 002): four clans of 13 Army cards fight over Battlefield tiles.

Game id ``clans``; see :mod:`kassen.rulesets.clans.game` for the scenarios (set-ups)
and ``docs/rulings.md`` for the rulings.
"""
