"""Commands & Colors: Samurai Battles (GMT) and its earlier Zvezda edition.

``SPECS`` registers both games (:mod:`kassen.rulesets.registry`): the GMT game ``cc-samurai``
(the default game of every command) and ``cc-samurai-zvezda``, a variant of the same rules.
"""

from __future__ import annotations

from typing import Any

from kassen.rulesets.registry import AISpec, EnvSpec, RulesetSpec


def _faces(text: str) -> list[Any]:
    """``kassen run --dice``: C&C battle dice by letter (c t s f h x)."""
    from kassen.engine.dice import parse_faces

    return list(parse_faces(text))


_COMMON: dict[str, Any] = {
    "scenario_info": "kassen.rulesets.cc_samurai.game:CCSamuraiGame.scenario_summary",
    "web_view": "cc",
    "rules_tables": "kassen.cli.tables:cc_rules",
    "unit_odds": True,
    "unit_reference": True,
    "forced_dice": _faces,
    "primer": "kassen.rulesets.cc_samurai.primer:primer",
    "ai": AISpec(player="kassen.ai.players:planner_level", timed=True),
    "env": EnvSpec(actions="kassen.envs.actions:cc_actions", encoder="kassen.envs.tensors:CCEncoder"),
}

SPECS = (
    RulesetSpec(id="cc-samurai", description="Commands & Colors: Samurai Battles (GMT)",
                game="kassen.rulesets.cc_samurai.game:CCSamuraiGame", default=True, **_COMMON),
    RulesetSpec(id="cc-samurai-zvezda",
                description="Samurai Battles (Zvezda, 2012): the earlier edition of the same system",
                game="kassen.rulesets.cc_samurai.game:ZvezdaGame", **_COMMON),
)
