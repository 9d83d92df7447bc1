"""The examples in docstrings run: every module whose docstrings hold ``>>>`` examples."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import kassen


def _modules_with_examples() -> list[str]:
    root = Path(kassen.__file__).parent
    names = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).with_suffix("")
        name = ".".join(rel.parts).removesuffix(".__init__")
        if name.startswith("kassen.web"):
            continue  # the server stack; its modules carry no examples
        if ">>>" in path.read_text(encoding="utf-8"):
            names.append(name)
    return names


MODULES = _modules_with_examples()


def test_the_modules_with_examples_are_found():
    assert {"kassen.engine.rng", "kassen.ai.series", "kassen.rulesets.cc_samurai.odds"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
