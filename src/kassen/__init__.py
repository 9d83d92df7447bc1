"""Kassen (合戦): Sengoku-era samurai wargames with every rule enforced."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, SourceFileLoader
from importlib.util import spec_from_file_location
from types import ModuleType

__version__ = "0.1.0"

#: set (to anything but "" or "0") at install time: no compile; at run time: the compiled
#: modules, if any were built, are ignored and the Python sources imported instead
PURE_PYTHON_ENV = "KASSEN_PURE_PYTHON"


class _SourceFirst:
    """Meta-path finder: every ``kassen.*`` module from its ``.py`` file, never a compiled one."""

    @staticmethod
    def find_spec(fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not fullname.startswith("kassen.") or path is None:
            return None
        leaf = fullname.rpartition(".")[2]
        for entry in path:
            source = os.path.join(entry, leaf + ".py")
            if os.path.isfile(source):
                return spec_from_file_location(fullname, source, loader=SourceFileLoader(fullname, source))
        return None  # a package or no such module: the normal finders


#: the library every compiled module of the package links to (setup.py, ``GROUP``)
_COMPILED_LIBRARY = "kassen__mypyc"


def _stale_compiled_module(package: str) -> str | None:
    """A compiled module of the ``package`` directory whose source was edited after the build
    (the compiled set is then out of date: all of it is ignored, never mixed with newer sources)."""
    parent = os.path.dirname(package)
    built = None
    for suffix in EXTENSION_SUFFIXES:
        lib = os.path.join(parent, _COMPILED_LIBRARY + suffix)
        if os.path.isfile(lib):
            # 2 s of slack: installing a wheel may write the sources after the library
            built = os.path.getmtime(lib) + 2
            break
    if built is None:
        return None
    for root, dirs, files in os.walk(package):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", "static", "data", "scenarios")]
        for name in files:
            for suffix in EXTENSION_SUFFIXES:
                if name.endswith(suffix):
                    source = os.path.join(root, name[: -len(suffix)] + ".py")
                    if os.path.isfile(source) and os.path.getmtime(source) > built:
                        return source
    return None


def _choose_build() -> None:
    if any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        return
    if os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0"):
        sys.meta_path.insert(0, _SourceFirst())
        return
    stale = _stale_compiled_module(os.path.dirname(os.path.abspath(__file__)))
    if stale is not None:
        print(f"kassen: {stale} changed after the compiled build; running pure Python "
              "(rebuild: pip install --no-deps -e .)", file=sys.stderr)
        sys.meta_path.insert(0, _SourceFirst())


_choose_build()


def build() -> str:
    """``"compiled"`` when the C&C rules run as compiled (mypyc) modules, else ``"python"``."""
    from kassen.rulesets.cc_samurai import state

    return "python" if state.__file__ is None or state.__file__.endswith(".py") else "compiled"
