"""Kensei (Zenit Miniatures), seed 003: a table companion for the quick-reference sheet.

Game id ``kensei``. The tables are in :mod:`kassen.rulesets.kensei.data`, rosters in
:mod:`kassen.rulesets.kensei.roster`, the exact dice odds in
:mod:`kassen.rulesets.kensei.rolls`; rulings K1... are in ``docs/rulings.md (Kensei)``.
"""
