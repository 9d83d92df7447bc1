"""The action index: fixed, round-trips, and covers what the shipped games offer."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kassen.engine.rng import Rng
from kassen.envs.actions import ActionIndex, action_index, env_games
from kassen.rulesets.registry import load_game

GAMES = env_games()


@pytest.mark.parametrize("gid", GAMES)
def test_index_is_built_once_and_round_trips(gid):
    ix = action_index(gid)
    assert ix is action_index(load_game(gid))
    assert ix.size == len(ix.actions) + ix.overflow
    for i in (0, len(ix.actions) // 2, len(ix.actions) - 1):
        assert ix.index(ix.action(i)) == i
    with pytest.raises(IndexError):
        ix.action(len(ix.actions))


def test_index_does_not_depend_on_the_process():
    """The same list in a fresh interpreter: the integers are stable across runs."""
    code = ("from kassen.envs.actions import action_index\n"
            "import hashlib\n"
            "for g in ('cc-samurai', 'clans', 'honourable-victory'):\n"
            "    print(g, hashlib.sha256('\\n'.join(action_index(g).actions).encode()).hexdigest())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    import hashlib

    for line in out.splitlines():
        g, digest = line.split()
        assert hashlib.sha256("\n".join(action_index(g).actions).encode()).hexdigest() == digest


def test_known_actions_have_their_place():
    cc = action_index("cc-samurai")
    for a in ("play order-two-center", "order F3 leader", "move J3 J5", "attack K4+M4 L5", "fire F3 F7",
              "dragon tactical-decision left", "dragon physician E4", "ignore 0", "pick 1", "retreat off"):
        assert a in cc, a
    assert "move B1 V11" not in cc  # farther than any move can reach
    cl = action_index("clans")
    for a in ("deploy archer rice-field", "deploy-down scout palace", "assassin bridge hondo 1",
              "move sanctuary 2 fortress", "bonus torii port", "choose port", "destroy 3"):
        assert a in cl, a
    assert "deploy-down archer palace" not in cl  # a Secret card is never deployed face down
    hv = action_index("honourable-victory")
    for a in ("fire S3 N2", "alloc S3 N2=2 N4=1", "S3 engage N2 left", "N2 counter", "reroll 2 4", "daimyo C2"):
        assert a in hv, a


def test_overflow_slots_number_unlisted_actions_in_legal_order():
    ix = ActionIndex("toy", ("a", "b"), overflow=2)
    codes = ix.encode(["b", "x", "a", "y"])
    assert codes == {"b": 1, "x": 2, "a": 0, "y": 3}
    assert ix.decode(3, ["b", "x", "a", "y"]) == "y"
    with pytest.raises(Exception, match="more than 2"):
        ix.encode(["x", "y", "z"])


def _walk(gid, scenario, seed, steps=None):
    g = load_game(gid)
    s = g.new_state(scenario, seed)
    rng = Rng(seed)
    n = 0
    while not s.is_terminal() and (steps is None or n < steps):
        legal = s.legal_actions()
        yield legal
        s = s.apply(rng.choice([a for a in legal if a != "concede"] or legal))
        n += 1


@pytest.mark.parametrize("gid", ["cc-samurai", "cc-samurai-zvezda", "clans"])
def test_every_legal_action_of_the_shipped_scenarios_is_listed(gid):
    ix = action_index(gid)
    for scen in load_game(gid).scenarios():
        for legal in _walk(gid, scen, 5):
            missing = [a for a in legal if a not in ix]
            assert not missing, (scen, missing)


def test_honourable_victory_actions_all_get_an_integer():
    ix = action_index("honourable-victory")
    for scen in load_game("honourable-victory").scenarios():
        for seed in range(4):
            for legal in _walk("honourable-victory", scen, seed):
                codes = ix.encode(legal)
                assert sorted(codes.values()) == sorted(set(codes.values()))
                assert all(ix.decode(i, legal) == a for a, i in codes.items())


def test_envs_import_nothing_from_the_front_ends():
    code = ("import sys, kassen.envs, kassen.envs.pettingzoo_env, kassen.envs.gym_env, kassen.envs.openspiel\n"
            "bad = sorted(m for m in sys.modules if m.startswith(('kassen.cli', 'kassen.web')))\n"
            "print(bad)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_kensei_companion_is_not_an_environment_and_says_why():
    from kassen.engine.errors import KassenError
    from kassen.envs.actions import action_index

    assert "kensei" not in env_games()
    with pytest.raises(KassenError, match="table companion"):
        action_index("kensei")


@pytest.mark.parametrize("gid", ["cc-samurai", "clans", "honourable-victory"])
def test_a_matchs_integers_are_the_indexs_across_games(gid):
    """``Match.ints`` (looked up through the match's cache of the actions met in play, kept across
    games) are the index's integers of the legal actions, in their order, at every decision."""
    from kassen.envs.core import Match

    m = Match(gid)
    ix = m.index
    for seed in (1, 2):
        m.reset(seed)
        rng = Rng(seed)
        while not m.state.is_terminal():
            legal = m.legal()
            assert m.ints() == list(ix.encode(legal).values()) == [ix.index(a) for a in legal]
            m.play(rng.choice(legal))


def test_a_match_plays_the_engines_own_string_for_an_integer():
    """``Match.play(i)`` applies the legal action numbered ``i`` (the engine's own string) and refuses
    an integer that is not legal now."""
    from kassen.engine.errors import KassenError
    from kassen.envs.core import Match

    m = Match("cc-samurai")
    m.reset(3)
    legal, ints = m.legal(), list(m.ints())
    before = m.state
    m.play(ints[-1])
    assert m.state.events and before.apply(legal[-1]).events[0].text == m.state.events[0].text
    bad = next(i for i in range(len(m.index.actions)) if i not in m.ints())
    with pytest.raises(KassenError):
        m.play(bad)
