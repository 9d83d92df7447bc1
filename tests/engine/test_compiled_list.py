"""One list of compiled modules (issue 32): setup.py holds it, the Makefile asks setup.py for it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _listed() -> list[str]:
    p = subprocess.run([sys.executable, "setup.py", "--list-compiled"], cwd=ROOT, capture_output=True,
                       text=True, timeout=60, check=True)
    return p.stdout.split()


def test_setup_lists_the_hot_modules_and_leaves_out_set_up_code() -> None:
    listed = _listed()
    assert all((ROOT / p).is_file() for p in listed)
    for hot in ("src/kassen/rulesets/cc_samurai/state.py", "src/kassen/engine/hexgrid.py",
                "src/kassen/envs/fast.py", "src/kassen/ai/playout.py", "src/kassen/ai/tree.py"):
        assert hot in listed
    for left_out in ("src/kassen/rulesets/cc_samurai/__init__.py", "src/kassen/rulesets/cc_samurai/data.py",
                     "src/kassen/rulesets/cc_samurai/scenario.py", "src/kassen/rulesets/cc_samurai/game.py"):
        assert left_out not in listed
    assert len(listed) == len(set(listed))


def test_the_makefile_names_no_compiled_module_of_its_own() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^COMPILED := \$\(shell python3 setup\.py --list-compiled\)$", makefile, re.M)
    # no module named outside that line (the clean target's globs name build outputs, not sources)
    assert not [line for line in makefile.splitlines() if ".py" in line and "src/kassen/" in line]
