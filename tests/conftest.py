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
