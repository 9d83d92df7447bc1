"""The clan card game: static facts, the set-ups (scenarios) and states from JSON.

Scenarios (002:41-124; rulings C1-C5 in ``docs/rulings.md``):

- ``2-players`` (the default): two clans, Battlefields drawn at random.
- ``3-players-beginners`` / ``4-players-beginners``: Battlefields drawn at random.
- ``3-players-experienced`` / ``4-players-experienced``: players choose their Battlefields.
- ``4-players-teams``: partners sit opposite; Battlefields chosen as for experienced players.

Options of ``new_state``: ``card_table=PATH`` plays with another card table (default:
``data/default.toml``); ``clans="hondo,jozu"`` picks the clans in seat order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kassen.engine.errors import FormatError
from kassen.engine.protocol import Game
from kassen.engine.rng import Rng
from kassen.rulesets.clans.data import CLANS, TILES, CardTable, load_table
from kassen.rulesets.clans.state import ClansState, cards_per_turn, clan_cards

#: scenario -> (players, experienced set-up, teams)
SCENARIOS: dict[str, tuple[int, bool, bool]] = {
    "2-players": (2, False, False),
    "3-players-beginners": (3, False, False),
    "4-players-beginners": (4, False, False),
    "3-players-experienced": (3, True, False),
    "4-players-experienced": (4, True, False),
    "4-players-teams": (4, True, True),
}
DEFAULT_SCENARIO = "2-players"


class ClansGame(Game):
    """The 2-4 player clan card game of seed 002."""

    id = "clans"
    name = "Clans: the Battlefield card game"
    rules_version = "1"
    seats = CLANS

    def scenarios(self) -> list[str]:
        return list(SCENARIOS)

    def default_scenario(self) -> str:
        return DEFAULT_SCENARIO

    def scenario_summary(self, scenario: str) -> dict[str, Any]:
        """One line of ``kassen scenarios``: name, sides and who plays first."""
        n, exp, teams = SCENARIOS[scenario]
        how = "Battlefields chosen" if exp else "Battlefields drawn at random"
        sides = [f"{CLANS[0]} & {CLANS[2]}", f"{CLANS[1]} & {CLANS[3]}"] if teams else list(CLANS[:n])
        who = (f"{sides[0]} play together against {sides[1]}" if teams
               else f"{', '.join(CLANS[:n - 1])} and {CLANS[n - 1]}, each for itself")
        where = ("the players choose the Battlefields (the experienced set-up)" if exp
                 else "the Battlefields are drawn at random (the beginners' set-up)")
        note = (f"{n} clans: {who}; {where}. Each clan deploys its Army cards on the Battlefields, "
                f"face up or face down, and {CLANS[0]} plays first.")
        return {"name": f"{n} players{', teams' if teams else ''}: {how}", "sides": sides, "first": CLANS[0],
                "note": note}

    def table(self, path: str | Path | None) -> CardTable:
        return load_table(path)

    def new_state(self, scenario: str | None = None, seed: int = 0, **options: Any) -> ClansState:
        name = scenario or DEFAULT_SCENARIO
        from kassen.rulesets.clans import position

        if position.is_position(name):  # a position file: its set-up, then its Battlefields and hands
            setup, clans = position.read_header(name)
            if setup not in SCENARIOS:
                raise FormatError(f"{name}: field position.scenario: unknown set-up {setup!r}; known: "
                                  f"{', '.join(SCENARIOS)}")
            if clans is not None:
                options = {**options, "clans": ",".join(clans)}
            s = self.new_state(setup, seed, **options)
            s._ev = []
            position.load_position(s, name)
            s.events = tuple(s._ev)
            s._ev = []
            return s
        if name not in SCENARIOS:
            raise FormatError(f"unknown clans scenario {name!r}; known: {', '.join(SCENARIOS)}")
        unknown = sorted(set(options) - {"card_table", "clans"})
        if unknown:
            raise FormatError(f"clans: unknown option(s) {', '.join(unknown)} (known: card_table, clans)")
        n, experienced, teams = SCENARIOS[name]
        path = options.get("card_table")
        table_path = None if path is None else str(path)
        s = ClansState(self, load_table(table_path), table_path)
        s.scenario = name
        s.n, s.teams = n, teams
        s.clans = _parse_clans(options.get("clans"), n)
        s.rng = Rng(seed)
        s.hands = [clan_cards(c) for c in s.clans]
        s.deployed = [0] * n
        s.last_card = [None] * n
        s.round, s.turn, s.left = 1, 0, cards_per_turn(1)
        if experienced:
            s.phase = "draft"
            s.start_draft(0)
        else:
            _draw_beginners(s)
            s.phase = "deploy"
        s.events = tuple(s._ev)
        s._ev = []
        return s

    def state_from_json(self, data: dict[str, Any]) -> ClansState:
        if not isinstance(data, dict):
            raise FormatError("clans state: expected a JSON object")
        path = data.get("card_table")
        if path is not None and not isinstance(path, str):
            raise FormatError("clans state: field 'card_table' must be a path or null")
        return ClansState.from_json(self, load_table(path), data)


def _parse_clans(value: Any, n: int) -> tuple[int, ...]:
    """The clans in seat order (C1): the first ``n`` of the rulebook's list by default."""
    if value is None:
        return tuple(range(n))
    names = value.split(",") if isinstance(value, str) else list(value)
    index = {c.lower(): i for i, c in enumerate(CLANS)}
    try:
        clans = tuple(index[str(x).strip().lower()] for x in names)
    except KeyError as exc:
        raise FormatError(f"clans: option 'clans': unknown clan {exc.args[0]!r}; known: {', '.join(CLANS)}") from None
    if len(clans) != n or len(set(clans)) != n:
        raise FormatError(f"clans: option 'clans' needs {n} different clans, got {value!r}")
    return clans


def _draw_beginners(s: ClansState) -> None:
    """2 players and 3-4 beginners (002:55-63, C2-C3): draw the tiles at random; between
    each seat and its left neighbour one 4-VP and one 6-VP Battlefield."""
    n = s.n
    fours = s.rng.shuffled(sorted(t for t in TILES if s.table.vp(t) == 4))
    sixes = s.rng.shuffled(sorted(t for t in TILES if s.table.vp(t) == 6))
    for seat in range(n):
        left = (seat + 1) % n
        s._place_tile(fours[seat], seat, left)
        s._place_tile(sixes[seat], left, seat)
    s.emit("setup", {"tiles": list(s.tiles)},
           "Battlefields drawn: " + ", ".join(
               f"{TILES[t][0]} ({s.name(a)}-{s.name(b)})" for t, (a, b) in zip(s.tiles, s.sides)))
