"""No import cycles in ``src/kassen``: neither at module level (a cycle there breaks on the first
import of the wrong module) nor hidden in functions (an import inside a function that leads back
to its own module is the same tangle, postponed). Imports under ``if TYPE_CHECKING:`` are types
only and do not count; nor do hooks named as strings (``kassen.rulesets.registry.hook``), which
are resolved downward by the front ends."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in SRC.rglob("*.py")}


def _targets(node: ast.Import | ast.ImportFrom, here: str, is_pkg: bool) -> set[str]:
    names: set[str] = set()
    if isinstance(node, ast.Import):
        names = {a.name for a in node.names}
    else:
        base = node.module or ""
        if node.level:
            pkg = here.split(".") if is_pkg else here.split(".")[:-1]
            pkg = pkg[: len(pkg) - (node.level - 1)]
            base = ".".join([*pkg, *([base] if base else [])])
        # ``from pkg import sub`` imports the module pkg.sub; ``from mod import name`` the module mod
        names = {f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names}
    out = set()
    ancestors = {".".join(here.split(".")[:i]) for i in range(1, here.count(".") + 1)}
    for n in names:  # a module and the packages above it (their __init__ runs first), but not this
        parts = n.split(".")  # module's own packages, which are imported before it anyway
        for i in range(1, len(parts) + 1):
            m = ".".join(parts[:i])
            if m in MODULES and m != here and (m not in ancestors or m == n):
                out.add(m)
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(name: str, module_level_only: bool) -> set[str]:
    """The modules of ``src`` that module ``name`` imports (at module level, or anywhere)."""
    path = MODULES[name]
    is_pkg = path.name == "__init__.py"
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.update(_targets(node, name, is_pkg))
            elif isinstance(node, ast.If) and _is_type_checking(node.test):
                visit(node.orelse)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if not module_level_only:
                    visit(node.body)
            elif isinstance(node, ast.ClassDef):
                visit(node.body)
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    sub = getattr(node, field, None)
                    if isinstance(sub, list):
                        visit([s for s in sub if isinstance(s, ast.stmt)]
                              + [s for h in sub if isinstance(h, ast.ExceptHandler) for s in h.body])

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def graph(module_level_only: bool) -> dict[str, set[str]]:
    return {name: imports_of(name, module_level_only) for name in MODULES}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return out


def test_no_module_level_import_cycle():
    assert cycles(graph(module_level_only=True)) == []


def test_no_import_cycle_hidden_in_functions():
    assert cycles(graph(module_level_only=False)) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
