"""``kassen scenarios new FILE`` and ``kassen scenarios check FILE``: a C&C scenario
designer's terminal path (the scenario editor's page is the other, ``/editor``)."""

from __future__ import annotations

import sys
from pathlib import Path

from kassen.cli.common import RUNTIME, fail
from kassen.rulesets.cc_samurai.design import edition_games

USAGE_TEXT = (f"usage: kassen scenarios new FILE [--game {edition_games()['zvezda']}]  or  "
              "kassen scenarios check FILE")


def design_command(words: list[str], game: str | None) -> None:
    """Dispatch ``new``/``check`` (``words`` as the ``scenarios`` command got them)."""
    if len(words) != 2:
        fail(USAGE_TEXT)
    if words[0] == "new":
        scenarios_new(Path(words[1]), game)
    else:
        if game is not None:
            fail("kassen scenarios check reads the edition from the file: drop --game")
        scenarios_check(Path(words[1]))


def scenarios_new(path: Path, game: str | None) -> None:
    """Write the commented template (``design.template``) to ``path``, never over a file."""
    from kassen.rulesets.cc_samurai.design import template

    editions: dict[str | None, str] = {gid: ed for ed, gid in edition_games().items()}
    editions[None] = "gmt"
    if game not in editions:
        fail(f"kassen scenarios new writes C&C battles: --game is {' or '.join(str(g) for g in editions if g)}, "
             f"not {game!r}")
    if path.exists():
        fail(f"{path} already exists: choose another name (kassen scenarios new never replaces a file)")
    try:
        with path.open("x", encoding="utf-8") as fh:
            fh.write(template(editions[game]))
    except OSError as exc:
        fail(f"{path}: cannot write: {exc.strerror}", RUNTIME)
    print(f"wrote {path}: edit it, then: kassen scenarios check {path}")


def scenarios_check(path: Path) -> None:
    """Validate ``path`` with the C&C loader and print every problem with its line; exit 1 if any
    (warnings are printed too, and do not fail: ``kassen run`` plays the file)."""
    from kassen.rulesets.cc_samurai.design import check_scenario_text

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"{path}: cannot read: {exc.strerror}", RUNTIME)
    except UnicodeDecodeError:
        fail(f"{path}: not a text file (UTF-8)", RUNTIME)
    scen, problems = check_scenario_text(text, str(path))
    for p in problems:
        print(f"{path}:{p.line}: {p.detail}" if p.line is not None else p.message)
    errors = [p for p in problems if not p.warning]
    if errors:
        print(f"{len(errors)} problem{'s' if len(errors) != 1 else ''} in {path}", file=sys.stderr)
        raise SystemExit(RUNTIME)
    assert scen is not None
    m = scen.scenario
    game = edition_games()[m.edition]
    warned = len(problems)
    print(f"{path}: no problems{f' ({warned} warning' + ('s' if warned != 1 else '') + ')' if warned else ''}: "
          f"{m.name!r} ({game}), {len(scen.red.pieces)} red and "
          f"{len(scen.blue.pieces)} blue pieces, {m.victory_banners} banners to win; play it: "
          f"kassen play {game} {path}")
