"""Copy-on-write, read from the sources: a rule that writes a group of data a fork shares with its
parent (``CCState.own_*``, docs/engine.md "Copy-on-write") calls that group's ``own_`` method
first, in the same function, and never changes the turn info's lists and dicts in place (they
are replaced). The seeded games of test_copy_on_write.py catch a forgotten call only where the
games reach it; this reads every function of the rules, so a new rule (a rare Dragon card, say)
that writes a hand without ``own_command_cards()`` fails here at once, with its line.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import kassen.rulesets.cc_samurai as pkg

RULES = Path(pkg.__file__).parent
#: methods that mutate a list or dict in place
MUTATORS = {"append", "pop", "remove", "insert", "extend", "clear", "sort", "reverse", "update", "setdefault",
            "popitem"}
#: functions allowed to write shared groups without their ``own_`` call, and why
EXEMPT = {
    ("game.py", "setup"): "builds a new state (CCState(game), nothing shared)",
    ("retreat.py", "_retreat_loss_from"): "a search that moves a unit to and fro and puts it back; its one "
                                          "caller, _retreat_options, owns the pieces first",
}


def own_groups() -> dict[str, set[str]]:
    """Each ``own_`` method of the state to the attributes it makes the state's own (read from
    state.py: the ``self.<name> = ...`` of its body, and the methods it calls)."""
    tree = ast.parse((RULES / "state.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "CCState")
    direct: dict[str, set[str]] = {}
    calls: dict[str, set[str]] = {}
    for fn in cls.body:
        if isinstance(fn, ast.FunctionDef) and fn.name.startswith("own_") and fn.name != "own_all":
            attrs, called = set(), set()
            for n in ast.walk(fn):
                if isinstance(n, ast.Assign):
                    for t in n.targets:
                        for e in (t.elts if isinstance(t, ast.Tuple) else [t]):
                            if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self":
                                attrs.add(e.attr)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr.startswith("own_"):
                    called.add(n.func.attr)
            direct[fn.name], calls[fn.name] = attrs - {"_cow", "_stk_shared", "stack", "ti"}, called
    groups = {}
    for name in direct:
        seen, todo, attrs = set(), [name], set()
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                attrs |= direct.get(m, set())
                todo.extend(calls.get(m, ()))
        groups[name] = attrs
    return groups


def _base(node: ast.expr) -> tuple[str, int, object] | None:
    """``s.units[h]`` / ``s.ti["spec"]["max"]`` / ``s.honor`` -> (the attribute, how many
    subscripts, the constant key of the first one or None)."""
    depth, key = 0, None
    while isinstance(node, ast.Subscript):
        key = node.slice.value if isinstance(node.slice, ast.Constant) else None
        node, depth = node.value, depth + 1
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.attr, depth, key
    return None


#: groups whose items are lists themselves (a hand), so an alias of one item can be written through
LIST_ITEMS = {"hands", "dragons"}


def writes(fn: ast.FunctionDef) -> list[tuple[int, str, int, object]]:
    """(line, attribute, subscripts, first key) of every in-place write in ``fn``: an item assigned,
    augmented or deleted, a mutating method called; through a local alias of a shared container
    (``units = s.units``, ``hand = s.hands[side]``) too."""
    alias: dict[str, str] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            b = _base(n.value)
            if b is not None and (b[1] == 0 or (b[1] == 1 and b[0] in LIST_ITEMS)):
                alias[n.targets[0].id] = b[0]

    def written(e: ast.expr, extra: int) -> tuple[str, int, object] | None:
        if isinstance(e, ast.Name) and e.id in alias and extra:
            return alias[e.id], 1, None
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and e.value.id in alias:
            return alias[e.value.id], 1, None
        b = _base(e)
        return (b[0], b[1] + extra, b[2]) if b is not None and b[1] + extra > 0 else None

    out = []
    for n in ast.walk(fn):
        targets: list[ast.expr] = []
        if isinstance(n, ast.Assign | ast.Delete):
            targets = [e for t in n.targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])
                       if isinstance(e, ast.Subscript)]
        elif isinstance(n, ast.AugAssign):
            targets = [n.target]  # s.honor[side] += 1, and s.command += ... (no subscript) too
        for t in targets:
            got = written(t, 0) or (written(t, 1) if isinstance(n, ast.AugAssign) else None)
            if got:
                out.append((n.lineno, *got))
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in MUTATORS:
            got = written(n.func.value, 1)
            if got:
                out.append((n.lineno, *got))
    return out


def owns(fn: ast.FunctionDef) -> dict[str, int]:
    """Each ``own_`` method ``fn`` calls to the first line it calls it on."""
    got: dict[str, int] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr.startswith("own_"):
            got[n.func.attr] = min(got.get(n.func.attr, n.lineno), n.lineno)
    return got


def replaced_ti_keys(fn: ast.FunctionDef) -> dict[object, int]:
    """Keys of the turn info ``fn`` assigns a new value to (``s.ti["spec"] = ...``), to their first line."""
    got: dict[object, int] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                b = _base(t)
                if b is not None and b[:2] == ("ti", 1) and b[2] is not None:
                    got[b[2]] = min(got.get(b[2], n.lineno), n.lineno)
    return got


def violations() -> list[str]:
    groups = own_groups()
    owner = {a: {m for m, attrs in groups.items() if a in attrs} for attrs in groups.values() for a in attrs}
    found = []
    for path in sorted(RULES.glob("*.py")):
        if path.name == "state.py":
            continue  # the own_ methods themselves
        for fn in ast.walk(ast.parse(path.read_text())):
            if not isinstance(fn, ast.FunctionDef) or (path.name, fn.name) in EXEMPT:
                continue
            own, fresh = owns(fn), replaced_ti_keys(fn)
            for line, attr, depth, key in writes(fn):
                if attr in owner and not any(own.get(m, line + 1) < line for m in owner[attr]):
                    found.append(f"{path.name}:{line}: {fn.name} writes {attr} without "
                                 f"{' or '.join(m + '()' for m in sorted(owner[attr]))} before")
                if attr == "ti" and depth >= 2 and (key is None or fresh.get(key, line + 1) >= line):
                    found.append(f"{path.name}:{line}: {fn.name} changes the turn info's {key!r} in place "
                                 "(it is shared with the parent: replace it)")
    return found


def test_every_rule_that_writes_a_shared_group_owns_it_first():
    assert violations() == []


def test_the_groups_are_read_from_the_own_methods():
    groups = own_groups()
    assert {"hands", "cmd_deck", "cmd_discard"} <= groups["own_command_cards"]
    assert groups["own_cards"] == groups["own_command_cards"] | groups["own_dragon_cards"]
    assert groups["own_pieces"] == {"units", "leaders"}
    assert "honor" in groups["own_score"] and "removed" in groups["own_logs"]


def test_the_check_finds_a_forgotten_own_call(tmp_path, monkeypatch):
    """The check itself: a hand drawn into without owning the cards, the turn info's orders
    appended to, Honor & Fortune raised without owning the score and the units written through an
    alias are each reported with their line; the owned hand and the freshly replaced spec are not."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "state.py").write_text((RULES / "state.py").read_text())
    (rules / "bad.py").write_text(
        "def _draw(s, side, cid):\n"
        "    s.hands[side].append(cid)\n"
        "def _ok(s, side, cid):\n"
        "    s.own_command_cards()\n"
        "    s.hands[side].append(cid)\n"
        "def _order(s, uid):\n"
        "    s.ti['orders'].append(uid)\n"
        "def _fresh(s):\n"
        "    s.ti['spec'] = {}\n"
        "    s.ti['spec']['max'] = 1\n"
        "def _honor(s, side):\n"
        "    s.honor[side] += 1\n"
        "def _alias(s, h):\n"
        "    units = s.units\n"
        "    del units[h]\n")
    monkeypatch.setattr(sys.modules[__name__], "RULES", rules)
    assert violations() == [
        "bad.py:2: _draw writes hands without own_cards() or own_command_cards() before",
        "bad.py:7: _order changes the turn info's 'orders' in place (it is shared with the parent: replace it)",
        "bad.py:12: _honor writes honor without own_score() before",
        "bad.py:15: _alias writes units without own_pieces() before",
    ]
