"""The examples in docstrings run: every module whose docstrings hold ``>>>`` examples."""

from __future__ import annotations

import ast
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


def _run_examples(name: str) -> doctest.TestResults:
    module = importlib.import_module(name)
    path = Path(module.__file__ or "")
    if path.suffix == ".py":
        return doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    # a compiled module (setup.py, mypyc) keeps no docstrings on its functions: the examples
    # of its source's docstrings, run against the compiled module
    source = path.parent / (name.rpartition(".")[2] + ".py")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node)
            if doc and ">>>" in doc:
                where = getattr(node, "name", name)
                runner.run(parser.get_doctest(doc, dict(vars(module)), f"{name}.{where}", str(source), 0))
    return runner.summarize(verbose=False)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = _run_examples(name)
    assert result.attempted > 0
    assert result.failed == 0
