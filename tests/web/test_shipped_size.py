"""The package is the product, not the lab notebook (issue 32): the balance reports it ships are
compact, and its data beyond the code stays small."""

from __future__ import annotations

import json
from pathlib import Path

import kassen

PACKAGE = Path(kassen.__file__).resolve().parent
BALANCE = PACKAGE / "web" / "static" / "balance"


def _data_files() -> list[Path]:
    return [p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts
            and p.suffix not in (".py", ".so", ".pyd", ".c", ".h")]


def test_the_shipped_balance_reports_hold_figures_and_small_plots_only() -> None:
    files = [p for p in BALANCE.rglob("*") if p.is_file()]
    assert {p.suffix for p in files} == {".json", ".svg"}
    assert sum(p.stat().st_size for p in files) <= 200_000
    for report in BALANCE.glob("*/balance.json"):
        doc = json.loads(report.read_text(encoding="utf-8"))
        for sid, rep in doc["scenarios"].items():
            assert "results" not in rep, (report, sid)
            assert all("values" not in v for v in rep["length"].values()), (report, sid)
            assert doc["plots"][sid] == [f"{sid}.svg"] and (report.parent / f"{sid}.svg").is_file()


def test_package_data_beyond_the_code_is_at_most_a_megabyte() -> None:
    assert sum(p.stat().st_size for p in _data_files()) <= 1_000_000
