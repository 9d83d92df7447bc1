"""The AI and the environments read a state through its queries, never the rules' encodings
(issue 32): C&C's ``pending()``, ``pending_kind()``, ``moved(u)``, ``moves_made()``,
``orders_given()``, ``card_played()``, ``card_effect()``, ``dragons_in_play()``; An Honourable
Victory!'s ``pending()`` and ``pending_kind()``; the clan game's ``pending_task()`` and
``pending_kind()``. A rule module may then change how it keeps its task stack or its turn info
without touching kassen.ai or kassen.envs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kassen.rulesets.cc_samurai.game import CCSamuraiGame

SRC = Path(__file__).resolve().parents[1] / "src" / "kassen"

#: the rules' private encodings, as a reader outside the rules would write them
FORBIDDEN = {
    "the task stack": re.compile(r"\.stack\b"),
    "the turn info": re.compile(r"\.ti\b"),
    "a task's kind by its key": re.compile(r"""\[\s*["']t["']\s*\]"""),
    "HV's private top of the stack": re.compile(r"\._top\("),
    "a private attribute of a state": re.compile(r"\b(?:s|s2|st|state|det|child)\._[a-z]\w*"),
}


def _code(line: str) -> str:
    """``line`` without its comment and its double-backquoted literals (docstrings name things)."""
    return re.sub(r"``[^`]*``", "", line.split("#", 1)[0])


def _reads(text: str) -> list[tuple[int, str, str]]:
    return [(no, what, line.strip()) for no, line in enumerate(text.splitlines(), 1)
            for what, pat in FORBIDDEN.items() if pat.search(_code(line))]


def test_the_patterns_catch_the_reads_they_replace() -> None:
    old = '''top = s.stack[-1]["t"] if s.stack else ""
moved = s.ti["moved"].get(f"u:{u.uid}", 0) > 0
p = st._top()
legal = state._legal
'''
    assert {what for _, what, _ in _reads(old)} == set(FORBIDDEN)
    assert _reads("kind = s.pending_kind()  # not s.stack[-1]['t']\nst.stacks\n") == []


@pytest.mark.parametrize("package", ["ai", "envs"])
def test_no_private_reads_of_a_state(package: str) -> None:
    found = [f"{path.relative_to(SRC)}:{no}: {what}: {line}"
             for path in sorted((SRC / package).rglob("*.py"))
             for no, what, line in _reads(path.read_text(encoding="utf-8"))]
    assert not found, "read through the state's queries instead:\n" + "\n".join(found)


def test_cc_queries_answer_what_the_encodings_held() -> None:
    s = CCSamuraiGame().new_state(None, seed=1)
    assert s.pending() is s.stack[-1] and s.pending_kind() == s.stack[-1]["t"] == "play"
    assert s.card_played() is None and s.orders_given() == [] and s.moves_made() == {}
    s = s.apply(next(a for a in s.legal_actions() if a.startswith("play ")))
    assert s.card_played() == s.ti["card"] is not None
    while s.pending_kind() != "order":  # a Dragon card window the card opened: passed
        s = s.apply("pass" if "pass" in s.legal_actions() else s.legal_actions()[0])
    while s.pending_kind() == "order":
        s = s.apply(next((a for a in s.legal_actions() if a.startswith("order ")), "done"))
    assert s.orders_given() is s.ti["orders"] and s.orders_given()
    assert s.pending_kind() == "move"
    move = next(a for a in s.legal_actions() if a.startswith("move "))
    s = s.apply(move)
    mover = s.units[s.b.parse(move.split()[2])]
    assert s.moved(mover) and s.moves_made()[f"u:{mover.uid}"] >= 1
    assert s.dragons_in_play() is s.ti["dragons_in_play"]
    assert s.card_effect() == s.ti["spec"].get("effect")
