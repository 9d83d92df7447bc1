"""Kensei: static facts, the six battle scenarios and states from JSON.

Scenarios are the six battles of the sheet's scenario table (003:32-35); ``None`` rolls
one (003:16). Options of ``new_state``: ``rosters="buke-vanguard,kuroi-te-horde"``
(shipped names or TOML paths, in seat order; this is the default), ``forced_dice=[...]``
(the set-up's dice).
"""

from __future__ import annotations

from typing import Any

from kassen.engine.errors import FormatError
from kassen.engine.protocol import Game
from kassen.rulesets.kensei.data import load_tables
from kassen.rulesets.kensei.roster import read_roster
from kassen.rulesets.kensei.state import KenseiState

DEFAULT_ROSTERS = ("buke-vanguard", "kuroi-te-horde")
#: the CPU one roll-resolver request may use (the largest legal engagement needs about a
#: tenth of it: benchmarks/kensei_odds.py)
CALCULATOR_CPU_SECONDS = 0.5


class KenseiGame(Game):
    """The Kensei table companion (Zenit Miniatures, quick-reference sheet v2.5, seed 003)."""

    id = "kensei"
    name = "Kensei (table companion)"
    rules_version = "1"
    seats = ("Player 1", "Player 2")
    #: the set-up throws dice (scenario, secret missions, Strategy roll): kassen run forces them from there
    dice_at_setup = True

    def scenarios(self) -> list[str]:
        return [s.id for s in sorted(load_tables().sheet.scenarios, key=lambda s: s.roll)]

    def default_scenario(self) -> str | None:
        return None

    def scenario_summary(self, scenario: str) -> dict[str, Any]:
        sc = next(s for s in load_tables().sheet.scenarios if s.id == scenario)
        return {"name": sc.name, "sides": ["attacker", "defender"], "first": "Strategy roll winner",
                "note": f"Battle scenario {sc.roll} of the sheet's table ({sc.source}). Its main and secondary "
                        f"missions are not on the quick-reference sheet: play them from the rulebook (K30)."}

    def new_state(self, scenario: str | None = None, seed: int = 0, **options: Any) -> KenseiState:
        unknown = sorted(set(options) - {"rosters", "forced_dice"})
        if unknown:
            raise FormatError(f"kensei: unknown option(s) {', '.join(unknown)} (known: rosters, forced_dice)")
        if scenario is not None and scenario not in self.scenarios():
            raise FormatError(f"unknown kensei scenario {scenario!r}; known: {', '.join(self.scenarios())} "
                              f"(or none: the scenario is rolled)")
        value = options.get("rosters") or ",".join(DEFAULT_ROSTERS)
        names = [x.strip() for x in value.split(",")] if isinstance(value, str) else [str(x) for x in value]
        if len(names) != 2:
            raise FormatError(f"kensei: option 'rosters' needs two rosters (one per player), got {value!r}")
        rosters = [read_roster(n) for n in names]
        forced = [int(x) for x in options.get("forced_dice") or []]
        return KenseiState.start(self, rosters, names, scenario, seed, forced)

    def state_from_json(self, data: dict[str, Any]) -> KenseiState:
        return KenseiState.from_json(self, data)

    def calculator(self, state: Any, request: dict[str, Any]) -> dict[str, Any]:
        """The page's roll resolver: the exact odds of an engagement between troops of this
        battle. ``request`` is an engagement (``docs/formats.md (Kensei)``) whose sides name a
        ``seat`` (0 or 1) instead of a roster; raises ``KassenError`` naming what is wrong."""
        from kassen.rulesets.kensei.counting import Budget
        from kassen.rulesets.kensei.engagement import engagement_odds

        if not isinstance(request, dict) or not isinstance(state, KenseiState):
            raise FormatError("the roll resolver takes an engagement object for a Kensei battle")
        rosters = state.data["rosters"]
        data = dict(request)
        for key in ("attacker", "defender", "target"):
            side = data.get(key)
            if side is None:
                continue
            seat = side.get("seat") if isinstance(side, dict) else None
            if type(seat) is not int or seat not in (0, 1):
                raise FormatError(f"the roll resolver: [{key}] field 'seat': a side names its seat, 0 or 1, and a "
                                  f"troop, got {seat!r}")
            side = dict(side)
            side["roster"] = rosters[side.pop("seat")]
            data[key] = side
        # every roll of a legal engagement has at most counting.MAX_DICE dice (more: refused), and
        # the count stops once it has used CALCULATOR_CPU_SECONDS of the request thread's CPU
        return engagement_odds(data, "the roll resolver", budget=Budget(CALCULATOR_CPU_SECONDS))

