"""The clan card game (seed 002): four clans of 13 Army cards fight over Battlefield tiles.

Game id ``clans``; see :mod:`kassen.rulesets.clans.game` for the scenarios (set-ups)
and ``docs/rulings.md`` for the rulings.
"""

from __future__ import annotations

from kassen.rulesets.registry import AISpec, EnvSpec, RulesetSpec, dice_words

SPECS = (
    RulesetSpec(
        id="clans",
        description="The clan card game: 2-4 clans, Battlefield tiles, secret Army cards",
        game="kassen.rulesets.clans.game:ClansGame",
        scenario_info="kassen.rulesets.clans.game:ClansGame.scenario_summary",
        web_view="clans",
        terminal_view="kassen.cli.render_clans:render",
        rules_tables="kassen.cli.tables:clans_rules",
        primer="kassen.rulesets.clans.primer:primer",
        forced_dice=dice_words,
        # the look-ahead levels: playouts per decision (the budget, counted) and their depth in
        # actions (60: to the end of a clan game)
        ai=AISpec(player="kassen.ai.players:halving_level",
                  evaluation="kassen.ai.evaluate_games:evaluate_clans",
                  levels={"easy": {"playouts": 30, "depth": 60},
                          "normal": {"playouts": 300, "depth": 60},
                          "hard": {"playouts": 1200, "depth": 60}}),
        env=EnvSpec(actions="kassen.envs.actions:clans_actions", encoder="kassen.envs.tensors:ClansEncoder"),
    ),
)
