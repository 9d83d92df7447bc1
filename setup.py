"""Build hook: compile the engine's hot modules with mypyc, or install pure Python.

The modules stay Python source; where a C compiler works they are also compiled to
extension modules next to the sources (issue 15). ``KASSEN_PURE_PYTHON=1`` at install
time skips the compile; a failed compile falls back to pure Python with one line of
explanation. Which modules: every module of the packages below except ``EXCLUDE``
(a new rules module is compiled without touching this file), and ``MODULES``.

This file is the one list of compiled modules: ``python3 setup.py --list-compiled`` prints it
(the Makefile rebuilds when one of them changes) without importing setuptools.
"""

from __future__ import annotations

import os
import sys
from glob import glob
from typing import Any

#: packages whose modules are compiled (a glob, so a new rules module is picked up)
PACKAGES = ["src/kassen/rulesets/cc_samurai"]
#: single engine modules the rules call on every step
MODULES = ["src/kassen/engine/hexgrid.py", "src/kassen/engine/rng.py", "src/kassen/engine/dice.py",
           "src/kassen/engine/events.py",
           # the C&C observation tensor of the environments, read from the state's native attributes
           "src/kassen/envs/fast.py",
           # the environments' per-step work: legal actions' integers, masks, the AEC env's step;
           # the clan game's and An Honourable Victory!'s tensors read from their states
           "src/kassen/envs/core.py", "src/kassen/envs/aec.py", "src/kassen/envs/fast_clans.py",
           "src/kassen/envs/fast_hv.py",
           # the look-ahead players' playout loop (MCTS, greedy): nearly all their time outside apply
           "src/kassen/ai/playout.py",
           # the MCTS tree: typed nodes and the per-iteration loop around the playouts
           "src/kassen/ai/tree.py",
           # the C&C evaluation: nearly all the turn planner's time (easy, normal, hard)
           "src/kassen/ai/evaluate.py"]
#: the compiled modules share one library, ``kassen__mypyc`` next to the package (kassen/__init__.py
#: compares its age with the sources')
GROUP = "kassen"
#: the build environment (pip's isolated one) holds no pydantic: its types are Any there
MYPY_FLAGS = ["--ignore-missing-imports", "--allow-subclassing-any", "--allow-untyped-decorators",
              "--no-warn-return-any", "--no-warn-unused-ignores"]
#: set-up and file loading (pydantic models, TOML, paths): run once per game, left interpreted;
#: the task records (TypedDicts: types only, and mypyc would erase their field types at run time);
#: the page's rules primer (text read per request, not a rule)
EXCLUDE = {"__init__.py", "data.py", "scenario.py", "game.py", "tasks.py", "primer.py"}


def _say(msg: str) -> None:
    print(f"kassen: {msg}", file=sys.stderr)


def _paths() -> list[str]:
    out = [p for pkg in PACKAGES for p in sorted(glob(f"{pkg}/*.py")) if os.path.basename(p) not in EXCLUDE]
    return out + MODULES


if __name__ == "__main__" and sys.argv[1:] == ["--list-compiled"]:
    os.chdir(os.path.dirname(os.path.abspath(__file__)))  # the paths are relative to the project
    print(" ".join(_paths()))
    sys.exit(0)

# imported after the listing, which must work where setuptools is not installed (the Makefile)
from setuptools import setup  # noqa: E402
from setuptools.command.build_ext import build_ext  # noqa: E402


def _ext_modules() -> list[Any]:
    if os.environ.get("KASSEN_PURE_PYTHON", "") not in ("", "0"):
        _say("KASSEN_PURE_PYTHON is set: pure-Python build")
        return []
    if not any(a in sys.argv for a in ("build_ext", "bdist_wheel", "editable_wheel", "build", "install",
                                       "develop", "bdist_egg")):
        return []  # egg_info, sdist and the like need no compile
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed: pure-Python build")
        return []
    try:
        exts: list[Any] = mypycify(MYPY_FLAGS + _paths(), opt_level="3", debug_level="0",
                                   group_name=GROUP)
    except BaseException as exc:  # mypy reports errors by SystemExit
        _say(f"mypyc could not translate the modules ({type(exc).__name__}: {exc}): pure-Python build")
        return []
    return exts


class OptionalBuildExt(build_ext):
    """build_ext that installs pure Python when the C compile fails (no compiler, no headers)."""

    def run(self) -> None:
        try:
            super().run()
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            self._remove_outputs()
            _say(f"no compiled build ({type(exc).__name__}: {str(exc).strip()[:200]}): pure-Python build")

    def _remove_outputs(self) -> None:
        # a half-built set must not be imported: every output of the build goes
        for ext in self.extensions:
            for path in (self.get_ext_fullpath(ext.name),
                         os.path.join("src", *ext.name.split(".")[:-1], os.path.basename(self.get_ext_filename(ext.name)))):
                if os.path.exists(path):
                    os.remove(path)

    def get_outputs(self) -> list[str]:
        return [p for p in super().get_outputs() if os.path.exists(p)]


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
