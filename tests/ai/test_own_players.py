"""Players from the user's own code: ``module:function`` in ``--players`` (issue 34, item 4)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kassen.ai.players import make_player
from kassen.engine.errors import KassenError
from kassen.rulesets.registry import load_game

SRC = str(Path(__file__).resolve().parents[2] / "src")

BOTS = textwrap.dedent('''
    from kassen.ai.players import Player

    CALLS = []

    class First(Player):
        def __init__(self, seed):
            self.seed = seed
            self.name = "first"

        def choose(self, state, seat):
            CALLS.append(seat)
            return state.legal_actions()[0]

    def make(seed):
        return First(seed)

    def last(state, seat):
        CALLS.append(seat)
        return state.legal_actions()[-1]

    def env_policy(seed):
        import numpy as np
        from kassen.envs.policy import PolicyPlayer
        return PolicyPlayer(lambda obs, info: int(np.flatnonzero(obs["action_mask"])[0]), name="masked-first")

    NOT_A_PLAYER = 3
''')


@pytest.fixture
def bots(tmp_path, monkeypatch):
    (tmp_path / "mybots.py").write_text(BOTS)
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    sys.modules.pop("mybots", None)


def test_a_factory_a_policy_and_an_env_policy_play(bots):
    st = load_game("clans").new_state("2-players", 3)
    seat = st.to_move()
    first = make_player("mybots:make", 5)
    assert first.name == "first" and first.seed == 5 and first.choose(st, seat) == st.legal_actions()[0]
    last = make_player("mybots:last", 5)
    assert last.name == "mybots:last" and last.choose(st, seat) == st.legal_actions()[-1]
    import mybots

    assert [seat, seat] == mybots.CALLS
    env = make_player("mybots:env_policy", 5)
    assert env.name == "masked-first" and env.choose(st, seat) in st.legal_actions()


@pytest.mark.parametrize(("spec", "says"), [("mybots", "unknown player"), ("mybots:", "module:function"),
                                            ("nosuchmod:make", "cannot import 'nosuchmod'"),
                                            ("mybots:missing", "has no 'missing'"),
                                            ("mybots:NOT_A_PLAYER", "neither a player")])
def test_a_bad_player_from_code_is_named(bots, spec, says):
    with pytest.raises(KassenError, match=says):
        make_player(spec, 0)


def test_kassen_battle_plays_module_function_players(bots):
    env = {**os.environ, "PYTHONPATH": SRC}
    r = subprocess.run([sys.executable, "-m", "kassen", "battle", "clans", "--players", "mybots:make,mybots:last",
                        "--games", "2", "--swap", "--json"], capture_output=True, text=True, env=env, cwd=bots,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    stats = json.loads(r.stdout)
    assert stats["games"] == 2 and set(stats["wins_by_player"]) == {"mybots:make", "mybots:last"}
