"""The lab notebook apart from the product (issue 32): ``benchmarks/`` holds scripts, a page of
current figures and one results file per series; the history is ``docs/decisions.md``."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"


def test_benchmarks_hold_at_most_40_files_and_a_short_page_of_figures() -> None:
    files = [p for p in BENCH.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert len(files) <= 40, sorted(str(p.relative_to(BENCH)) for p in files)
    assert len((BENCH / "README.md").read_text(encoding="utf-8").splitlines()) <= 300
    assert (ROOT / "docs" / "decisions.md").is_file()


def test_every_results_file_is_one_series() -> None:
    loose = [p.name for p in BENCH.iterdir() if p.is_file() and p.name.startswith("results")]
    assert not loose  # a series' parts are packed into benchmarks/results/NAME.jsonl
    for path in (BENCH / "results").iterdir():
        assert path.suffix == ".jsonl", path
        with path.open(encoding="utf-8") as f:
            head = json.loads(f.readline())
        assert head["type"] == "series" and head["format"] == "kassen-series/1", path
        assert head["name"] == path.stem and head["about"], path


def test_the_files_make_test_starts_first_exist() -> None:
    from tests.conftest import LONGEST_FIRST

    missing = [p for p in LONGEST_FIRST if not (ROOT / p).is_file()]
    assert not missing, f"tests/conftest.py LONGEST_FIRST names files that are gone: {missing}"
