"""Set up C&C Samurai positions in a few lines and drive them with forced dice.

    s = position('''
        [red]
        pieces = [{ at = "F3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "F5", unit = "SSp" }]
    ''', red_hand=["order-two-center"])
    s = act(s, "play order-two-center", "order F3", "done", "end-move")
    s = act(s, "attack F3 F5", dice="x x f")
"""

from __future__ import annotations

import textwrap
import tomllib
from typing import Any

from kassen.engine.dice import parse_faces
from kassen.engine.events import Event
from kassen.rulesets.cc_samurai.game import CCSamuraiGame, ZvezdaGame
from kassen.rulesets.cc_samurai.scenario import parse_scenario
from kassen.rulesets.cc_samurai.state import CCState

GAME = CCSamuraiGame()
ZVEZDA = ZvezdaGame()

DEFAULT_HAND = ["order-three-center", "order-three-left", "order-three-right", "order-two-center", "advance-center"]


def position(
    body: str,
    *,
    red_hand: list[str] | None = None,
    blue_hand: list[str] | None = None,
    red_honor: int = 5,
    blue_honor: int = 5,
    active: str = "red",
    bottom: str = "red",
    victory: int = 5,
    red_dragons: list[str] | None = None,
    blue_dragons: list[str] | None = None,
    command_deck: list[str] | None = None,
    seed: int = 0,
    game: CCSamuraiGame = GAME,
) -> CCState:
    """A start-of-turn position from the TOML of ``[terrain]``, ``[red]`` and ``[blue]`` pieces.

    ``[red]``/``[blue]`` need only ``pieces``; command/dragon/honor default to 5/0/5.
    ``game=ZVEZDA`` sets it up under the Zvezda edition.
    """
    data: dict[str, Any] = tomllib.loads(textwrap.dedent(body))
    for side in ("red", "blue"):
        army = data.setdefault(side, {})
        army.setdefault("pieces", [])
        army.setdefault("command", 5)
        army.setdefault("dragon", 0)
        army.setdefault("honor", red_honor if side == "red" else blue_honor)
    data["scenario"] = {
        "id": "test", "name": "test position", "first": active, "bottom": bottom, "victory_banners": victory,
        "edition": game.edition,
    }
    data["position"] = {
        "red": {"hand": red_hand or list(DEFAULT_HAND), "dragons": red_dragons or []},
        "blue": {"hand": blue_hand or list(DEFAULT_HAND), "dragons": blue_dragons or []},
    }
    if command_deck is not None:
        data["position"]["command_deck"] = command_deck
    return game.setup(parse_scenario(data, "test position"), seed)


def act(state: CCState, *actions: str, dice: str | None = None) -> CCState:
    """Apply ``actions``; ``dice`` (letters c t s f h x) are forced before the first one.

    A First Strike question whose only answer is ``pass`` (the defender holds no First
    Strike card, R30) is answered after each action, so tests read like the rulebook.
    """
    if dice is not None:
        state = state.with_forced_dice(parse_faces(dice))
    for a in actions:
        state = skip_pass(state.apply(a))
    return state


def skip_pass(state: CCState) -> CCState:
    """Answer a First Strike question that has no other answer than ``pass``."""
    while state.legal_actions() == ["pass"]:
        state = state.apply("pass")
    return state


def unit(state: CCState, name: str) -> Any:
    return state.units.get(state.b.parse(name))


def leader(state: CCState, name: str) -> Any:
    return state.leaders.get(state.b.parse(name))


def texts(state: CCState) -> list[str]:
    return [e.text for e in state.events]


def run(state: CCState, *actions: str, dice: str | None = None) -> tuple[CCState, list[Event]]:
    """Like ``act`` (answers a lone ``pass`` question) but also returns every event of every action."""
    if dice is not None:
        state = state.with_forced_dice(parse_faces(dice))
    evs: list[Event] = []
    for a in actions:
        state = state.apply(a)
        evs.extend(state.events)
        while state.legal_actions() == ["pass"]:
            state = state.apply("pass")
            evs.extend(state.events)
    return state, evs


def pieces(spec: str) -> str:
    """``"F3 ASp, G2 SSp:2+foot, M2 +mounted"`` -> the TOML array of those pieces."""
    out = []
    for raw in spec.split(","):
        raw = raw.strip()
        if not raw:
            continue
        at, what = raw.split(" ", 1)
        fields = [f'at = "{at}"']
        body, _, ld = what.partition("+")
        body = body.strip()
        if body:
            typ, _, blocks = body.partition(":")
            fields.append(f'unit = "{typ}"')
            if blocks:
                fields.append(f"blocks = {int(blocks)}")
        if ld:
            fields.append(f'leader = "{ld.strip()}"')
        out.append("{ " + ", ".join(fields) + " }")
    return "[" + ", ".join(out) + "]"
