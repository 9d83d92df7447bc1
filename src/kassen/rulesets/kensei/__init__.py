"""Kensei (Zenit Miniatures), seed 003: a table companion for the quick-reference sheet.

Game id ``kensei``. The tables are in :mod:`kassen.rulesets.kensei.data`, rosters in
:mod:`kassen.rulesets.kensei.roster`, the exact dice odds in
:mod:`kassen.rulesets.kensei.rolls`; rulings K1... are in ``docs/rulings.md (Kensei)``.
"""

from __future__ import annotations

from typing import Any

from kassen.rulesets.registry import RulesetSpec, dice_words


def play_words(words: list[str]) -> tuple[str | None, dict[str, Any]]:
    """``kassen play kensei [SCENARIO] ROSTER_A ROSTER_B``: the two rosters are the option
    ``rosters``; a single word is the scenario.

    >>> play_words(["buke-vanguard", "kuroi-te-horde"])
    (None, {'rosters': 'buke-vanguard,kuroi-te-horde'})
    >>> play_words(["border-wars", "a.toml", "b.toml"])
    ('border-wars', {'rosters': 'a.toml,b.toml'})
    >>> play_words(["border-wars"])
    ('border-wars', {})
    """
    from kassen.engine.errors import KassenError

    if len(words) > 3:
        raise KassenError(f"kensei: expected [SCENARIO] [ROSTER_A ROSTER_B], got {len(words)} words: "
                          f"{' '.join(words)}")
    if len(words) < 2:
        return (words[0] if words else None), {}
    return (words[0] if len(words) == 3 else None), {"rosters": f"{words[-2]},{words[-1]}"}


#: Kensei is a table companion whose decisions are facts of a physical table (which miniatures
#: are in contact, whether a charge reached), so it is no research environment (``env`` None):
#: an agent could not play it without the table
SPECS = (
    RulesetSpec(
        id="kensei",
        description="Kensei (Zenit): a table companion for the miniatures game, exact dice odds",
        game="kassen.rulesets.kensei.game:KenseiGame",
        default_players="human,human",
        scenario_info="kassen.rulesets.kensei.game:KenseiGame.scenario_summary",
        web_view="kensei",
        primer="kassen.rulesets.kensei.primer:primer",
        terminal_view="kassen.cli.kensei:render",
        rules_tables="kassen.cli.kensei:rules_tables",
        scenario_table="kassen.cli.kensei:scenario_table",
        odds="kassen.cli.kensei:odds_table",
        calculator="kassen.rulesets.kensei.game:KenseiGame.calculator",
        play_words=play_words,
        forced_dice=dice_words,
        dice_at_setup=True,
        people_only=True,
    ),
)
