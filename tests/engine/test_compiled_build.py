"""The compiled build (setup.py, mypyc) plays exactly as the pure-Python build (issue 15).

Both builds of one installation play the same 1,000 seeded random games, each in a
subprocess (``KASSEN_PURE_PYTHON=1`` forces the sources); every game's digest (actions,
events, legal-action counts, final state: :mod:`kassen.testing.replay`) must match.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

import pytest

#: GAME/SCENARIO/FIRST_SEED/COUNT: 1,000 games on four battles of both editions
SPECS = [
    "cc-samurai/first-samurai-skirmish/0/550",
    "cc-samurai/nagashino-1575/0/150",
    "cc-samurai/sekigahara-1600/0/100",
    "cc-samurai-zvezda/first-samurai-skirmish/0/200",
]


def _env(pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "KASSEN_PURE_PYTHON"}
    if pure:
        env["KASSEN_PURE_PYTHON"] = "1"
    return env


def _installed_build() -> str:
    p = subprocess.run([sys.executable, "-c", "import kassen; print(kassen.build())"], env=_env(False),
                       capture_output=True, text=True, timeout=120, check=True)
    return p.stdout.strip()


def test_specs_cover_1000_games() -> None:
    assert sum(int(s.rsplit("/", 1)[1]) for s in SPECS) == 1000


def test_pure_python_switch_ignores_the_compiled_modules() -> None:
    p = subprocess.run([sys.executable, "-c", "import kassen; print(kassen.build())"], env=_env(True),
                       capture_output=True, text=True, timeout=120, check=True)
    assert p.stdout.strip() == "python"


@pytest.mark.slow
def test_compiled_and_python_builds_play_1000_games_identically() -> None:
    if _installed_build() != "compiled":
        pytest.skip("no compiled build installed (no C compiler at install time, KASSEN_PURE_PYTHON "
                    "set, or a compiled module's source edited since the build)")
    cmd = [sys.executable, "-m", "kassen.testing.replay", *SPECS]
    # both builds at once: one core each
    procs = {pure: subprocess.Popen(cmd, env=_env(pure), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for pure in (False, True)}
    out: dict[bool, Any] = {}
    for pure, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=1800)
        assert proc.returncode == 0, stderr
        out[pure] = json.loads(stdout)
    assert out[False]["build"] == "compiled" and out[True]["build"] == "python"
    for spec in SPECS:
        compiled, python = out[False]["digests"][spec], out[True]["digests"][spec]
        assert len(compiled) == len(python) == int(spec.rsplit("/", 1)[1])
        first_seed = int(spec.split("/")[2])
        differ = [first_seed + i for i, (a, b) in enumerate(zip(compiled, python)) if a != b]
        assert not differ, f"{spec}: the builds played seeds {differ[:10]} differently"


#: the C&C turn planner on both builds of its evaluation (``ai/evaluate.py``, compiled since issue
#: 33): every action, and the evaluation after it to the last bit, with every optional term on
PLANNER_DIGEST = """
import hashlib
import kassen
from kassen.ai.evaluate import evaluate, load_weights
from kassen.ai.planner import TurnPlanner
from kassen.rulesets.registry import load_game
w = load_weights()
w.update(vulnerable=1.5, inspired_dice=1, engage_stall=0.3)
h = hashlib.sha256()
for seed in (1, 2):
    players = [TurnPlanner(seed * 2 + i, weights=w, battle_samples=2, card_rollouts=2, reply=True) for i in range(2)]
    s = load_game("cc-samurai").new_state("first-samurai-skirmish", seed)
    for _ in range(80):
        if s.is_terminal():
            break
        seat = s.to_move()
        a = players[seat].choose(s, seat)
        s = s.apply(a)
        h.update(f"{a} {evaluate(s, 0, w)!r}\\n".encode())
print(kassen.build(), h.hexdigest())
"""


def test_compiled_and_python_evaluations_plan_the_same_turns() -> None:
    if _installed_build() != "compiled":
        pytest.skip("no compiled build installed")
    procs = {pure: subprocess.Popen([sys.executable, "-c", PLANNER_DIGEST], env=_env(pure), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True) for pure in (False, True)}
    out = {}
    for pure, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0, stderr
        out[pure] = stdout.split()
    assert out[False][0] == "compiled" and out[True][0] == "python"
    assert out[False][1] == out[True][1], "the compiled evaluation planned other turns than the Python one"


def test_a_source_edited_after_the_build_makes_the_compiled_set_stale(tmp_path: Path) -> None:
    from kassen import _stale_compiled_module

    suffix = EXTENSION_SUFFIXES[0]
    package = tmp_path / "kassen"
    (package / "engine").mkdir(parents=True)
    library, compiled = tmp_path / f"kassen__mypyc{suffix}", package / "engine" / f"rng{suffix}"
    source, plain = package / "engine" / "rng.py", package / "engine" / "errors.py"
    for f in (library, compiled, source, plain):
        f.write_bytes(b"")
    os.utime(library, (1000, 1000))
    os.utime(plain, (5000, 5000))  # no compiled twin: never stale
    os.utime(source, (1001, 1001))  # within the slack of an install
    assert _stale_compiled_module(str(package)) is None
    os.utime(source, (1003, 1003))
    assert _stale_compiled_module(str(package)) == str(source)
    library.unlink()  # no compiled build at all
    assert _stale_compiled_module(str(package)) is None
