"""What every command shares: the console, the one-line error and its exit codes, game look-up
through the registry and ``--option`` parsing. Commands of any module import these from here
(never from :mod:`kassen.cli.main`, which imports the commands)."""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from kassen.engine.errors import KassenError

if TYPE_CHECKING:
    from rich.console import Console

    from kassen.engine.protocol import Game
    from kassen.rulesets.registry import RulesetSpec

#: exit codes: a command used wrongly (options, names), and a command that failed at its work
USAGE, RUNTIME = 2, 1


def console() -> Console:
    from rich.console import Console

    # a terminal's own width; piped, 160 columns unless COLUMNS says otherwise
    wide = None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 160
    return Console(highlight=False, width=wide)


def fail(message: str, code: int = USAGE) -> NoReturn:
    from rich.console import Console
    from rich.markup import escape

    # never hard-wrapped (a path or an action must stay whole) and never read as markup
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[bold red]error:[/] {escape(message)}")
    raise typer.Exit(code)


def spec(game_id: str | None) -> RulesetSpec:
    """The spec of ``game_id`` (``None``: the default game); an unknown id fails the command."""
    from kassen.rulesets.registry import default_game, get

    try:
        return default_game() if game_id is None else get(game_id)
    except KassenError as exc:
        fail(str(exc))


def game(game_id: str | None) -> Game:
    """The game of ``game_id`` (``None``: the default game); an unknown id fails the command."""
    return spec(game_id).load()


def parse_options(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` strings to game options; a VALUE that reads as JSON (7, true) is that value.

    >>> parse_options(["width=7", "card_table=my.toml", "teams=true"])
    {'width': 7, 'card_table': 'my.toml', 'teams': True}
    """
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(f"--option {item!r}: expected KEY=VALUE")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def plain(obj: Any) -> Any:
    """Tables (pydantic models, dicts, lists) as plain JSON values."""
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json", by_alias=True)
    if isinstance(obj, dict):
        return {str(k): plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain(v) for v in obj]
    return obj
