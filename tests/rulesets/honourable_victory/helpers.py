"""Set up An Honourable Victory! positions in a few lines and drive them with forced dice.

    s = position([foot("S1", "C2"), foot("N1", "C2", facing="S")], start="move", mover=0)
    s = act(s, "S1 engage N1 front", dice=[2])
"""

from __future__ import annotations

from typing import Any

from kassen.rulesets.honourable_victory.game import HonourableVictoryGame
from kassen.rulesets.honourable_victory.state import HVState, Unit
from kassen.rulesets.honourable_victory.table import DIRS, Table

GAME = HonourableVictoryGame()

DEFAULT_OPTIONS: dict[str, Any] = {
    "width": 5, "limit": 4, "reserves": True, "turn_limit": 12, "quality": "off", "terrain": True,
    "min_stands": 2, "max_foot_stands": 9, "max_mounted_stands": 6,
}


def unit(uid: str, zone: str, cls: str = "foot", weapon: str = "hand-to-hand", stands: int = 4,
         facing: str | None = None, form: str = "attack", hits: int = 0, mounted: bool = True,
         quality: str = "seasoned", fired: bool = False, status: str | None = None,
         start: int | None = None) -> Unit:
    side = 0 if uid[0] == "S" else 1
    face = DIRS.index(facing) if facing else (0 if side == 0 else 2)
    if status is None:
        status = "reserve" if zone[1] in "04" else "table"
    u = Unit(uid, side, f"unit {uid}", cls, weapon, stands, zone, face, form, quality, status)
    u.hits, u.fired = hits, fired
    u.mounted = cls == "mounted" and mounted
    if start is not None:
        u.start = start
    return u


def foot(uid: str, zone: str, weapon: str = "hand-to-hand", **kw: Any) -> Unit:
    return unit(uid, zone, "foot", weapon, **kw)


def light(uid: str, zone: str, weapon: str = "bow", **kw: Any) -> Unit:
    return unit(uid, zone, "light-foot", weapon, **kw)


def horse(uid: str, zone: str, **kw: Any) -> Unit:
    return unit(uid, zone, "mounted", "mounted", **kw)


def position(units: list[Unit], *, daimyo: tuple[str | None, str | None] = ("A1", "E3"), init: int = 0,
             start: str = "move", mover: int | None = None,
             contacts: tuple[tuple[str, str, str, str], ...] = (), terrain: dict[str, tuple[str, ...]] | None = None,
             escarpments: tuple[tuple[str, str], ...] = (), dice: list[int] | None = None, turn: int = 1,
             start_units: tuple[int, int] | None = None, tally: tuple[int, int] = (0, 0),
             **options: Any) -> HVState:
    """A position: ``start`` is ``"fire"`` (the Firing Phase), ``"h2h"`` (the Hand-to-Hand
    Combat Phase, hit markers and all), ``"move"`` (``mover``'s movement phase, default the
    initiative side) or ``"victory"`` (the Determine Victory Phase). ``dice`` are forced."""
    opts = {**DEFAULT_OPTIONS, **options}
    table = Table(opts["width"], opts["limit"], opts["reserves"], dict(terrain or {}),
                  frozenset(frozenset(e) for e in escarpments))
    s = HVState(GAME, GAME.tables, table, opts)
    s.battle_id, s.battle_name = "test", "test position"
    s.clans, s.daimyo_names = ["South clan", "North clan"], ["S daimyo", "N daimyo"]
    s.units = {u.uid: u for u in units}
    s.contacts = list(contacts)
    s.daimyo = list(daimyo)
    s.turn, s.init = turn, init
    s.tally = list(tally)
    s.start_units = list(start_units) if start_units else [sum(1 for u in units if u.side == k) for k in (0, 1)]
    s.forced = list(dice or [])
    if start == "fire":
        s.pend = {"step": "fire", "seat": init}
        s._next_fire()
    elif start == "h2h":
        s._begin_h2h()
    elif start == "move":
        s._begin_move(init if mover is None else mover)
        s.mover = init if mover is None else mover
    elif start == "victory":
        s.mover = 1 - init
        s._victory()
    else:
        raise ValueError(start)
    s.events = tuple(s._ev)
    s._ev = []
    return s


def act(state: HVState, *actions: str, dice: list[int] | None = None) -> HVState:
    """Apply ``actions`` in order; ``dice`` are forced before the first."""
    if dice is not None:
        state = state.with_forced_dice(dice)
    for a in actions:
        state = state.apply(a)
    return state


def texts(state: HVState) -> list[str]:
    return [e.text for e in state.events]


def kinds(state: HVState) -> list[str]:
    return [e.kind for e in state.events]
