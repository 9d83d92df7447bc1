"""One registration point per game (issue 32, item 1): every front end learns the games from
their specs (``kassen.rulesets.registry``), so a new game is one spec and its rules.

- a toy game registered by one spec appears in ``kassen games``, ``kassen play``, the lobby and
  ``aec_env`` with no other edit;
- no game id is written in ``src/kassen`` outside ``rulesets/`` (front ends iterate the specs);
- every spec passes the random-playout contract, and its introductory scenario's legal-action
  counts match the golden file (perft-style).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kassen.engine.errors import KassenError
from kassen.engine.rng import Rng
from kassen.rulesets.registry import (
    RulesetSpec,
    available,
    default_game,
    get,
    register,
    specs,
    unregister,
)
from kassen.testing.contract import run_contract
from tests.toy.duel_spec import SPEC as DUEL

SRC = Path(__file__).resolve().parents[2] / "src" / "kassen"
GOLDEN = Path(__file__).parent / "golden" / "spec_legal_counts.json"


@pytest.fixture
def duel() -> Iterator[RulesetSpec]:
    register(DUEL)
    try:
        yield DUEL
    finally:
        unregister(DUEL.id)


# ------------------------------------------------------------------ the registry
def test_every_shipped_game_has_one_spec_and_one_default():
    ids = available()
    assert ids == ["cc-samurai", "cc-samurai-zvezda", "clans", "honourable-victory", "kensei"]
    assert len(set(ids)) == len(ids)
    assert [s.id for s in specs() if s.default] == ["cc-samurai"] == [default_game().id]
    for s in specs():
        assert s.load().id == s.id  # the factory makes the game the spec names


def test_an_unknown_game_id_is_refused_naming_the_known_ones():
    with pytest.raises(KassenError, match=r"unknown game 'chess'; known games: cc-samurai, "):
        get("chess")


def test_a_shipped_game_cannot_be_replaced_and_unregistering_removes_only_the_added(duel):
    with pytest.raises(KassenError, match="already a shipped game"):
        register(RulesetSpec(id="clans", description="another", game=DUEL.game))
    assert available()[-1] == "duel"
    unregister("duel")
    unregister("clans")  # not added: nothing happens
    assert "duel" not in available() and "clans" in available()


def test_another_distribution_registers_a_game_through_the_entry_point_group(monkeypatch):
    """A package that is not Kassen's adds a game by naming its spec in the ``kassen.games`` group."""
    import importlib.metadata

    from kassen.rulesets import registry

    class EntryPoint:
        name = "duel"

        def load(self):
            return (DUEL,)

    def entry_points(group):
        return [EntryPoint()] if group == registry.ENTRY_POINTS else []

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(registry, "_found", None)  # found again, with the entry point
    assert available()[-1] == "duel" and get("duel") is DUEL
    with pytest.raises(KassenError, match="already a shipped game"):
        register(DUEL)


# ------------------------------------------------------------------ a new game is one spec
def test_the_toy_game_appears_in_kassen_games(duel):
    from kassen.cli.main import app

    r = CliRunner().invoke(app, ["games", "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)
    assert {"id": "duel", "description": DUEL.description} in rows


def test_the_toy_game_plays_in_kassen_play(duel):
    from kassen.cli.main import app

    # North (a person) swaps, South (the random player) answers; North fights if South did not
    r = CliRunner().invoke(app, ["play", "duel", "--players", "human,random", "--seed", "3"],
                           input="swap\nfight\nfight\nq\nn\n")
    assert r.exit_code == 0, r.output
    assert "throws away" in r.output and "against" in r.output  # the swap's and the fight's events


def test_the_toy_game_is_in_the_lobby_and_can_be_created(duel, tmp_path):
    from fastapi.testclient import TestClient

    from kassen.web.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'k.db'}", allowed_hosts=("testserver",))) as client:
        row = next(g for g in client.get("/api/catalog").json()["games"] if g["id"] == "duel")
        assert row["view"] == "generic" and row["seats"] == ["North", "South"]
        assert row["description"] == DUEL.description
        made = client.post("/api/games", json={"ruleset": "duel", "seats": ["human", "human"]})
        assert made.status_code == 201, made.text
        data = made.json()
        token = data["seats"][0]["token"]
        view = client.get(f"/api/games/{data['game_id']}", headers={"Authorization": f"Bearer {token}"}).json()
        assert view["ruleset"] == "duel" and [a["action"] for a in view["actions"]] == ["fight", "swap"]


def test_the_toy_game_is_a_pettingzoo_aec_env(duel):
    pytest.importorskip("pettingzoo")
    from kassen.envs import aec_env

    env = aec_env("duel", seed=2)
    env.reset(seed=2)
    assert env.possible_agents and len(env.possible_agents) == 2
    steps = 0
    for _agent in env.agent_iter(max_iter=20):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        assert legal and obs["observation"].shape == (18,)
        env.step(legal[-1])  # swap when it may, else fight
        steps += 1
    assert 1 <= steps <= 3 and all(env.terminations.get(a, True) for a in env.possible_agents)


# ------------------------------------------------------------------ no game id outside rulesets/
#: string constants outside rulesets/ that equal a word which is also a game id but do not name
#: the game: (file, the string) and why
NOT_GAME_IDS = {
    ("cli/render_hv.py", "clans"): "the key of An Honourable Victory!'s observation naming each side's clan",
}


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def test_no_game_id_is_written_outside_rulesets():
    """Front ends (cli, web, ai, envs, engine, testing) iterate the specs: a game id in their
    code (not their docstrings and comments) is per-game wiring that a new game would need too."""
    ids = available()
    word = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("rulesets/"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                for m in word.finditer(node.value):
                    if (rel, node.value) not in NOT_GAME_IDS:
                        found.append(f"{rel}:{node.lineno}: {m.group(0)!r} in {node.value[:60]!r}")
    assert not found, "game ids outside rulesets/:\n" + "\n".join(found)


def test_the_page_names_no_game_either():
    """The page's scripts (not their comments) take the games, their views and default players from
    the catalog (the specs), never from a game id."""
    ids = "|".join(map(re.escape, available()))
    quoted = re.compile(r"""["'`](""" + ids + r""")["'`]""")
    found = []
    for path in sorted((SRC / "web" / "static").rglob("*.js")):
        code = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
        for n, line in enumerate(code.splitlines(), 1):
            line = re.sub(r"//.*$", "", line)
            if quoted.search(line):
                found.append(f"{path.relative_to(SRC)}:{n}: {line.strip()[:80]}")
    assert not found, "game ids in the page's scripts:\n" + "\n".join(found)


# ------------------------------------------------------------------ every spec: contract and perft
@pytest.mark.parametrize("gid", available())
def test_every_spec_passes_the_contract(gid):
    game = get(gid).load()
    report = run_contract(game, None, games=2, seed=32, full_checks_every=7)
    assert report.games == 2 and report.actions > 0


SEED, PLIES, PERFT_EVERY = 7, 60, 20


def perft(state, depth: int) -> int:
    """Leaves of the action tree ``depth`` plies deep (dice come from the state's RNG)."""
    if depth == 0 or state.is_terminal():
        return 1
    return sum(perft(state.apply(a), depth - 1) for a in state.legal_actions())


def legal_counts(game) -> list[list[int]]:
    """Along a seeded random game of the introductory scenario (never conceding while anything else
    is legal): each ply's number of legal actions and, every ``PERFT_EVERY`` plies, the leaves two
    plies deep."""
    s = game.new_state(None, SEED)
    rng = Rng(SEED)
    rows = []
    for ply in range(PLIES):
        if s.is_terminal() or s.to_move() is None:
            break
        legal = s.legal_actions()
        rows.append([ply, len(legal), perft(s, 2) if ply % PERFT_EVERY == 0 else -1])
        s = s.apply(rng.choice([a for a in legal if a != "concede"] or legal))
    return rows


def compute() -> dict[str, list[list[int]]]:
    return {s.id: legal_counts(s.load()) for s in specs()}


@pytest.mark.parametrize("gid", available())
def test_every_specs_introductory_legal_action_counts_match_the_golden_file(gid):
    expected = json.loads(GOLDEN.read_text())
    assert gid in expected, f"no golden counts for {gid}: run python -m tests.engine.test_specs"
    assert legal_counts(get(gid).load()) == expected[gid]


if __name__ == "__main__":  # regenerate the golden file (only after a rule change meant to change it)
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(compute(), indent=None) + "\n")
