"""Reaction windows open on public information only, in every game (R32).

Determinization: a state and a copy that differs only in what one seat cannot see (the other
hands, face-down cards, secret declarations; the dice to come kept identical) must, after the
same action, give that seat and a spectator identical views (the same seat to move, the same
"waiting for" text, the same observations) unless the action itself told it something new
(a reveal, a card it drew). Before R32's revision, a Dragon-card window
opened only when the hidden hand held a playable card, and First Strike's only when it held
First Strike, so the question told the opponent what was in the hand.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from kassen.engine.events import events_for_seat
from kassen.engine.protocol import State
from kassen.engine.rng import Rng
from kassen.rulesets.registry import load_game

#: (game id, scenario, seeds, steps a game) — every game, with several seat counts
CASES: list[tuple[str, str | None, range, int]] = [
    ("cc-samurai", None, range(6), 500),
    ("cc-samurai", "sekigahara-1600", range(2), 300),
    ("cc-samurai-zvezda", None, range(3), 400),
    ("honourable-victory", None, range(3), 300),
    ("clans", "2-players", range(3), 200),
    ("clans", "3-players-beginners", range(2), 200),
    ("clans", "4-players-teams", range(2), 200),
    ("kensei", None, range(2), 150),
]


def _same_dice(det: State, orig: State) -> State:
    """``det`` with the dice to come of ``orig``: the copy then differs only in hidden cards."""
    det.rng = orig.rng.copy()  # type: ignore[attr-defined]
    return det


#: copies of one card are the same card to a player: C&C's "C#14", the clan game's "hondo-peasant-3"
_INSTANCE = re.compile(r"\b([CD]#|[a-z]+-peasant-)\d+")


def _public(obs: dict[str, Any]) -> str:
    return _INSTANCE.sub(r"\1", json.dumps(obs, sort_keys=True))


def _view(s: State, seat: int) -> tuple[Any, ...]:
    """What ``seat`` sees: who is to move, the "waiting for" text, its observation and a
    spectator's."""
    mover = s.to_move()
    return (mover, s.prompt() if mover is not None else None, _public(s.observation(None)),
            _public(s.observation(seat)))


def _news(s: State, seat: int | None) -> list[str]:
    """What the last action told ``seat``: a reveal or a card drawn is news, rightly different
    between the two copies; a window that opens is not news but a question."""
    return [_INSTANCE.sub(r"\1", e.text) for e in events_for_seat(s.events, seat)]


@pytest.mark.parametrize(("game_id", "scenario", "seeds", "steps"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_windows_and_waiting_texts_depend_on_public_information_only(
        game_id: str, scenario: str | None, seeds: range, steps: int) -> None:
    game = load_game(game_id)
    checked = 0
    for seed in seeds:
        state = game.new_state(scenario, seed)
        rng = Rng(1000 + seed)
        for _ in range(steps):
            mover = state.to_move()
            if mover is None:
                break
            legal = state.legal_actions()
            action = rng.choice(legal)
            after = state.apply(action)
            for seat in range(len(state.seat_names())):
                # resampled: what ``seat`` cannot see; the mover's action must still be legal
                det = _same_dice(state.determinize(seat, Rng(rng.next64())), state)
                if action not in det.legal_actions():
                    continue
                det_after = det.apply(action)
                if any(_news(det_after, who) != _news(after, who) for who in (seat, None)):
                    continue  # the action revealed what differs (a reveal, a card drawn)
                assert _view(det_after, seat) == _view(after, seat), (
                    f"{game_id} seed {seed}: after {action!r} by seat {mover}, what seat {seat} sees "
                    "depends on cards it cannot see")
                checked += 1
            state = after
    assert checked > 50


def test_a_dragon_window_opens_whatever_the_hand_holds() -> None:
    """The same close combat, once with a defender holding a card of the window and once
    holding only cards of other windows: both times the defender is asked (R32)."""
    game = load_game("cc-samurai")
    state = game.new_state(None, 3)
    rng = Rng(7)
    seen = {True: 0, False: 0}
    for _ in range(3000):
        mover = state.to_move()
        if mover is None:
            state = game.new_state(None, rng.randbelow(10_000))
            continue
        top = state.stack[-1]  # type: ignore[attr-defined]
        if top["t"] == "combat" and top["step"] == "react":
            dragon_acts = [a for a in state.legal_actions() if a.startswith("dragon ")]
            seen[bool(dragon_acts)] += 1
        state = state.apply(rng.choice(state.legal_actions()))
    assert seen[True] > 0 and seen[False] > 0
