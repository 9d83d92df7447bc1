"""Two states that differ only in what a seat may not see give that seat the same tensor."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kassen.engine.rng import Rng
from kassen.envs.core import Match
from kassen.envs.tensors import observe
from kassen.rulesets.registry import load_game


def _states(gid, scenario, seed, every, count):
    g = load_game(gid)
    s = g.new_state(scenario, seed)
    rng = Rng(seed)
    n = 0
    out = []
    while not s.is_terminal() and len(out) < count:
        if n % every == every - 1:
            out.append(s)
        s = s.apply(rng.choice(s.legal_actions()))
        n += 1
    return out


def _swap(game, state, a, b):
    """``state`` with the ids ``a`` and ``b`` exchanged everywhere in its JSON."""
    text = json.dumps(state.to_json())
    text = text.replace(f'"{a}"', "\x00").replace(f'"{b}"', f'"{a}"').replace("\x00", f'"{b}"')
    return game.state_from_json(json.loads(text))


def _cc_pair(game, state, viewer):
    """Swap a card of the other seat's hand with a Command deck card of another kind."""
    t = game.tables
    other = 1 - viewer
    data = state.to_json()
    for c in data["hands"][other]:
        for d in data["cmd_deck"]:
            if t.command_ids[c] != t.command_ids[d]:
                return _swap(game, state, c, d)
    return None


def _clans_pair(game, state, viewer):
    """Swap a face-down card of another clan with one of a different kind in that clan's hand:
    neither has been seen by ``viewer``."""
    from kassen.rulesets.clans.state import card_type

    data = state.to_json()
    secrets = {x.strip('"') for x in state.secrets(viewer)}
    down = sorted(e[0] for tile in data["stacks"] for side in tile for e in side if not e[1] and e[0] in secrets)
    hand = sorted(c for h in data["hands"] for c in h if c in secrets)
    for a in down:
        for b in hand:
            if a.split("-")[0] == b.split("-")[0] and card_type(a) != card_type(b):
                return _swap(game, state, a, b)
    return None


def _json_observe(gid):
    """The JSON path: ``encoder(game).encode(state.observation(seat))``."""
    return observe


def _fast_observe(gid):
    """The game's fast observer (kassen.envs.fast, fast_clans, fast_hv): one per game, its
    per-seat caches kept across the calls, as the env keeps it."""
    from kassen.envs.fast import Observer

    ob = Observer(gid)
    assert ob.fast is not None or ob.other is not None
    return ob.observe


@pytest.mark.parametrize("make_observe", [_json_observe, _fast_observe], ids=["json", "fast"])
@pytest.mark.parametrize(("gid", "scenario"), [("cc-samurai", None), ("clans", "3-players-beginners")])
def test_determinized_states_look_the_same_to_their_seat(make_observe, gid, scenario):
    obs = make_observe(gid)
    for st in _states(gid, scenario, seed=4, every=5, count=8):
        seat = st.to_move()
        det = st.determinize(seat, Rng(17))
        assert np.array_equal(obs(det, seat), obs(st, seat))


def test_masks_belong_to_the_seat_to_move_only():
    m = Match("clans", "3-players-beginners")
    m.reset(1)
    mover = m.state.to_move()
    for seat in range(3):
        assert m.mask(seat).any() == (seat == mover)


def _hv_pair(game, state, viewer):
    """The other side's fire declarations changed (one more, or one fewer): secrets of that side."""
    data = state.to_json()
    other = 1 - viewer
    decl = data["fire_decl"][other]
    if decl:
        data["fire_decl"][other] = decl[:-1]
    else:
        mine = sorted(u["uid"] for u in data["units"] if u["side"] == other)
        theirs = sorted(u["uid"] for u in data["units"] if u["side"] == viewer)
        if not mine or not theirs:
            return None
        data["fire_decl"][other] = [[mine[0], theirs[0]]]
    return game.state_from_json(data)


@pytest.mark.parametrize("make_observe", [_json_observe, _fast_observe], ids=["json", "fast"])
@pytest.mark.parametrize(("gid", "scenario", "pair", "every"), [
    ("cc-samurai", None, _cc_pair, 23),
    ("cc-samurai", "nagashino-1575", _cc_pair, 23),
    ("clans", "2-players", _clans_pair, 2),
    ("clans", "4-players-teams", _clans_pair, 3),
    ("honourable-victory", "meeting-engagement", _hv_pair, 3),
])
def test_the_other_seats_secrets_do_not_change_my_tensor(make_observe, gid, scenario, pair, every):
    """A state and its twin that differ only in another seat's secrets look the same to the seat,
    by the JSON path and by the fast observers (whose caches see both, in turn), and the fast
    tensors are the JSON ones."""
    game = load_game(gid)
    obs = make_observe(gid)
    checked = 0
    for st in _states(gid, scenario, seed=9, every=every, count=12):
        viewer = st.to_move()
        twin = pair(game, st, viewer)
        if twin is None:
            continue
        assert twin.to_json() != st.to_json()
        assert np.array_equal(obs(twin, viewer), obs(st, viewer))
        assert np.array_equal(obs(twin, viewer), observe(st, viewer))
        if gid == "honourable-victory":  # the side whose declarations changed counts them
            assert not np.array_equal(obs(twin, 1 - viewer), obs(st, 1 - viewer))
        else:  # the seats that can see the swapped cards do see a difference
            seen = [s for s in range(len(st.seat_names())) if not np.array_equal(obs(twin, s), obs(st, s))]
            assert seen and viewer not in seen
        checked += 1
    assert checked >= 5
