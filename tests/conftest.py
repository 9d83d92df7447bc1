"""Test-session reporting: how many tests ran on PostgreSQL (CI's log counts them)."""

from __future__ import annotations

from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    counts: dict[str, int] = {}
    for outcome in ("passed", "failed", "skipped", "error"):
        for report in terminalreporter.stats.get(outcome, []):
            if "postgresql" in getattr(report, "nodeid", "") and getattr(report, "when", "call") in ("call", "setup"):
                if outcome == "passed" and report.when != "call":
                    continue
                counts[outcome] = counts.get(outcome, 0) + 1
    if counts:
        terminalreporter.write_line("PostgreSQL tests: " + ", ".join(f"{n} {k}" for k, n in counts.items()))


#: the longest test files first, by their measured seconds (``--durations=0``, 2026-12-01): ``make
#: test`` hands whole files to its workers in collection order (``--dist loadfile
#: --no-loadscope-reorder``), so the long ones start at once and the short ones fill in behind
#: them instead of one long file running alone at the end; a file's own order (and its
#: module-scoped server's seeded games) is kept
LONGEST_FIRST = (
    "tests/engine/test_compiled_build.py",  # both builds at once: two processes
    "tests/rulesets/cc_samurai/test_scenarios.py",
    "tests/web/test_browser_turns.py",
    "tests/rulesets/cc_samurai/test_contract.py",
    "tests/web/test_browser.py",
    "tests/web/test_leaks.py",
    "tests/web/test_browser_clicks.py",
    "tests/rulesets/clans/test_contract.py",
    "tests/ai/test_planner.py",
    "tests/rulesets/kensei/test_playout.py",
    "tests/ai/test_balance.py",
    "tests/web/test_editor_browser.py",
    "tests/rulesets/honourable_victory/test_contract.py",
)


def pytest_collection_modifyitems(items: list[Any]) -> None:
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable: files keep their order
