"""The tensors read straight from the state (kassen.envs.fast) are the tensors of the JSON view.

Every decision of a few seeded random games, for every seat and every game id: the env's
observer must give exactly ``encoder(game).encode(observation(seat))``, so the fast paths (the
C&C games: kassen.envs.fast; the clan game: fast_clans; An Honourable Victory!: fast_hv) cannot
drift from the documented layout or show a seat more than its observation does.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from kassen.envs.actions import env_games
from kassen.envs.core import Match
from kassen.envs.fast import CCObserver, Observer
from kassen.envs.tensors import observe
from kassen.rulesets.registry import load_game

#: a few seeded games per game id; C&C scenarios with objectives, a tent and Leaders included
CASES = [
    ("cc-samurai", None, (0, 1)),
    ("cc-samurai", "nagashino-1575", (2,)),
    ("cc-samurai", "kawanakajima-1561-takeda-pincer", (3,)),
    ("cc-samurai-zvezda", None, (0, 1)),
    ("clans", "2-players", (0, 1)),
    ("clans", "4-players-teams", (2,)),
    ("honourable-victory", "meeting-engagement", (0, 1, 2)),
]


OBSERVERS: dict[str, Observer] = {}


def test_every_game_id_is_covered():
    assert {c[0] for c in CASES} == set(env_games())


@pytest.mark.parametrize(("gid", "scenario", "seeds"), CASES)
def test_fast_tensor_equals_the_json_tensor_at_every_decision(gid, scenario, seeds):
    game = load_game(gid)
    ob = OBSERVERS.setdefault(gid, Observer(gid))  # one per game, across seeds and scenarios (as env.reset)
    for seed in seeds:
        st = game.new_state(scenario, seed)
        rng = random.Random(seed)
        n = 0
        while True:
            for seat in range(len(st.seat_names())):
                fast = ob.observe(st, seat)
                assert np.array_equal(fast, observe(st, seat)), (gid, seed, n, seat)
            if st.is_terminal() or n >= 4000:
                break
            st = st.apply(rng.choice(st.legal_actions()))
            n += 1
        assert n > 0


def test_every_game_has_a_fast_path():
    from kassen.envs.fast_clans import ClansObserver
    from kassen.envs.fast_hv import HVObserver

    assert isinstance(Observer("cc-samurai").fast, CCObserver)
    assert isinstance(Observer("cc-samurai-zvezda").fast, CCObserver)
    assert isinstance(Observer("clans").other, ClansObserver)
    assert isinstance(Observer("honourable-victory").other, HVObserver)


def test_a_fresh_array_every_time():
    m = Match("cc-samurai")
    m.reset(3)
    a = m.observe(0)
    a[:] = 7
    assert not np.array_equal(m.observe(0), a)


@pytest.mark.parametrize("gid", ["cc-samurai", "clans", "honourable-victory"])
def test_a_mask_kept_never_changes_and_cannot_be_written(gid):
    """Masks are read-only, and the match writes again only into mask buffers nobody holds: masks
    kept (a replay buffer) stay as they were, whatever is played after."""
    m = Match(gid)
    m.reset(3)
    rng = random.Random(3)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    for k in range(60):
        if m.state.is_terminal():
            break
        seat = m.state.to_move()
        mask = m.mask(seat)
        with pytest.raises(ValueError, match="read-only"):
            mask[0] = 1
        assert not m.mask(1 - seat).any()
        if k % 2 == 0:
            kept.append((mask, mask.copy()))
        assert sorted(np.flatnonzero(mask)) == sorted(m.ints())
        m.play(rng.choice(m.legal()))
    assert len(kept) >= 10
    for mask, was in kept:
        assert np.array_equal(mask, was)
    assert len(m._masks) <= 4  # the buffers held are let go, not scanned at every call


def test_masks_dropped_are_rewritten_in_place():
    """A loop that drops each mask before asking the next one reuses its buffers, where a fresh
    array every call would make a new one each time."""
    m = Match("cc-samurai")
    m.reset(5)
    rng = random.Random(5)
    bases = set()
    mask = None
    for _ in range(200):
        seat = m.state.to_move()
        mask = m.mask(seat)
        bases.add(id(mask.base))
        assert sorted(np.flatnonzero(mask)) == sorted(m.ints())
        m.play(rng.choice(m.legal()))
    assert len(bases) <= 2, bases


@pytest.mark.parametrize("scenario", list(load_game("clans").scenarios()))
def test_clan_tensors_after_skipped_decisions_and_states_seen_twice(scenario):
    """The clan observer keeps each seat's sides by the identity of their lists of cards (shared by
    ``apply`` until a rule changes them) and the face-up Strength by list: a seat that looks only
    now and then (several sides changed since), states observed again out of order (an older
    state's lists after newer ones), and the end of the game (every card shown) still give the
    JSON view's tensor, in every scenario."""
    from kassen.envs.fast_clans import ClansObserver
    from kassen.envs.tensors import encoder

    game = load_game("clans")
    ob = ClansObserver(encoder("clans"))  # one across the seeds, as the env keeps it
    for seed in (5, 6):
        st = game.new_state(scenario, seed)
        rng = random.Random(seed)
        seen = [st]
        while True:
            seats = range(len(st.seat_names()))
            for seat in seats:
                if st.is_terminal() or rng.random() < 0.4:
                    assert np.array_equal(ob.observe(st, seat), observe(st, seat)), (scenario, seed, seat)
            if rng.random() < 0.1:  # an older state again
                old = rng.choice(seen)
                seat = rng.randrange(len(old.seat_names()))
                assert np.array_equal(ob.observe(old, seat), observe(old, seat)), (scenario, seed, "old")
            if st.is_terminal():
                break
            st = st.apply(rng.choice(st.legal_actions()))
            seen.append(st)


def test_honourable_victory_tensors_out_of_order_and_now_and_then():
    """The An Honourable Victory! observer rewrites a unit's slot and its share of the unit planes
    only when what the unit shows changed since that seat last looked (the planes' cells summed
    again in the state's order of the units): a seat that looks only now and then, states looked at
    again out of order (as a search over OpenSpiel clones does) and the end of the battle still give
    the JSON view's tensor."""
    from kassen.envs.fast_hv import HVObserver
    from kassen.envs.tensors import encoder

    game = load_game("honourable-victory")
    ob = HVObserver(encoder("honourable-victory"))
    checked = 0
    for scenario in game.scenarios():
        for seed in (4, 5):
            st = game.new_state(scenario, seed, concede=False)
            rng = random.Random(seed)
            seen = [st]
            while True:
                for seat in (0, 1):
                    if st.is_terminal() or rng.random() < 0.3:
                        assert np.array_equal(ob.observe(st, seat), observe(st, seat)), (scenario, seed, seat)
                        checked += 1
                if rng.random() < 0.2:  # an older state again
                    old = rng.choice(seen)
                    seat = rng.randrange(2)
                    assert np.array_equal(ob.observe(old, seat), observe(old, seat)), (scenario, seed, "old")
                    checked += 1
                if st.is_terminal():
                    break
                st = st.apply(rng.choice(st.legal_actions()))
                seen.append(st)
    assert checked > 100
