"""Writing C&C scenario files: the commented template of ``kassen scenarios new`` and the
serialisation the scenario editor saves with (``to_toml``: a scenario's data, as
``tomllib`` reads it, back to the text ``kassen run``/``kassen play`` load; docs/formats.md)."""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

import pydantic

from kassen.engine.errors import FormatError
from kassen.rulesets.cc_samurai import scenario
from kassen.rulesets.cc_samurai.game import CCSamuraiGame, ZvezdaGame

#: the order the tables of a scenario file are written in, and each table's key order
_META_KEYS = ("id", "name", "year", "historical", "edition", "note", "first", "bottom", "victory_banners",
              "red_name", "blue_name")
_ARMY_KEYS = ("command", "dragon", "honor", "tent", "exits")
_PIECE_KEYS = ("at", "unit", "leader", "blocks")
_OBJECTIVE_KEYS = ("name", "hexes", "side", "banners", "kind")
_RULES_KEYS = ("tent_banners", "exit_banners", "order_one_banner", "notes")
_POSITION_KEYS = ("active", "turn", "command_deck", "dragon_deck", "last_played")
_SIDE_POSITION_KEYS = ("hand", "dragons", "honor", "banners", "command")


def _ordered(table: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    return [k for k in keys if k in table] + [k for k in table if k not in keys]


def _key(k: str) -> str:
    return k if k and all(c.isalnum() or c in "_-" for c in k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any) -> str:
    """One TOML value (JSON's string escapes are TOML's basic-string escapes)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items() if x is not None) + " }"
    raise TypeError(f"no TOML value for {type(v).__name__}")


def _lines(table: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    out = []
    for k in _ordered(table, keys):
        v = table[k]
        if v is None or isinstance(v, dict):
            continue
        out.append(f"{_key(k)} = {_value(v)}")
    return out


def to_toml(data: dict[str, Any]) -> str:
    """A scenario's data (``Scenario.model_dump(exclude_none=True)`` or the raw tables of a
    file) as the text of a scenario file. Values are written as they are, valid or not, so
    the loader judges a design exactly as it would judge the file."""
    out: list[str] = []

    def table(header: str, body: dict[str, Any] | None, keys: tuple[str, ...]) -> None:
        if body is None:
            return
        if out:
            out.append("")
        out.append(header)
        out.extend(_lines(body, keys))

    table("[scenario]", data.get("scenario"), _META_KEYS)
    terrain = data.get("terrain")
    if terrain:
        table("[terrain]", {k: v for k, v in terrain.items()}, ())
    for obj in data.get("objective") or []:
        table("[[objective]]", obj, _OBJECTIVE_KEYS)
    rules = data.get("rules")
    if rules:
        table("[rules]", rules, _RULES_KEYS)
    for side in ("red", "blue"):
        army = data.get(side)
        if army is None:
            continue
        table(f"[{side}]", {k: v for k, v in army.items() if k != "pieces"}, _ARMY_KEYS)
        pieces = army.get("pieces")
        if isinstance(pieces, list):
            out.append("pieces = [")
            for p in pieces:
                out.append("  " + (_value({k: p[k] for k in _ordered(p, _PIECE_KEYS)}) if isinstance(p, dict)
                                   else _value(p)) + ",")
            out.append("]")
    pos = data.get("position")
    if pos is not None:
        table("[position]", pos, _POSITION_KEYS)
        if isinstance(pos.get("last_played"), dict):
            out.append(f"last_played = {_value(pos['last_played'])}")
        for side in ("red", "blue"):
            if isinstance(pos.get(side), dict):
                table(f"[position.{side}]", pos[side], _SIDE_POSITION_KEYS)
    known = {"scenario", "terrain", "objective", "rules", "red", "blue", "position"}
    for k, v in data.items():  # anything else is written too, for the loader to name
        if k not in known:
            if isinstance(v, dict):
                table(f"[{_key(k)}]", v, ())
            else:
                out.insert(0, f"{_key(k)} = {_value(v)}")
    return "\n".join(out) + "\n"


_UNITS = {
    "gmt": ("Unit codes: SSp SB ASp AB AA LI SSpC SBC BG (kassen rules cc-samurai prints the table).",
            ["SSp", "ASp", "AB", "AA", "SSpC", "ASp"]),
    "zvezda": ("Unit codes: SN SC ASp AB AA BG (kassen rules cc-samurai-zvezda prints the table).",
               ["SN", "ASp", "AB", "AA", "SC", "ASp"]),
}


def template(edition: str = "gmt") -> str:
    """A commented scenario file to start a design from: a small battle the loader accepts
    (six units and a Leader a side), every field explained (docs/formats.md)."""
    units_note, units = _UNITS[edition]
    red_at = ["F3", "H3", "J3", "L3", "O2", "T3"]
    blue_at = ["T9", "R9", "P9", "N9", "K10", "F9"]
    tent = edition == "zvezda"  # a Zvezda command tent always holds the Army Commander

    def pieces(ats: list[str], leader_at: str) -> str:
        rows = [f'  {{ at = "{a}", unit = "{u}" }},' for a, u in zip(ats, units, strict=True)]
        rows.insert(1, f'  {{ at = "{leader_at}", leader = "mounted" }},                 # a lone Leader')
        rows[2] = rows[2].replace(" },", ', leader = "foot" },') + "   # a unit with an attached Leader"
        return "\n".join(rows)

    edition_line = 'edition = "zvezda"                 # Samurai Battles (Zvezda, 2012): play it as cc-samurai-zvezda\n' \
        if edition == "zvezda" else \
        '# edition = "zvezda"               # the earlier Zvezda edition (its own units); default "gmt"\n'
    red_tent = 'tent = "L1"                        # command tent hex (the Army Commander starts on it)\n' \
        if tent else '# tent = "L1"                      # optional command tent hex\n'
    blue_tent = 'tent = "L11"\n' if tent else ""
    red_cmdr = '  { at = "L1", unit = "BG", leader = "commander" },  # Army Commander and bodyguards, in the tent\n' \
        if tent else ""
    blue_cmdr = '  { at = "L11", unit = "BG", leader = "commander" },\n' if tent else ""
    return f'''# A Kassen scenario for Commands & Colors: Samurai Battles (docs/formats.md).
# Check it with:  kassen scenarios check FILE      Play it with:  kassen play FILE
# Hexes: a column letter and a row number from the bottom (row 1 is the bottom player's
# baseline, row 11 the top's); full rows use B D F ... X, short rows A C E ... Y (A and Y are
# half-hexes). Sections: left A-H, center I-Q, right R-Y (as the bottom player sees them).

[scenario]
id = "my-battle"                   # a short name, used on the command line
name = "My Battle"
year = 1560                        # optional
historical = false                 # optional, default true
{edition_line}note = """Who, when, what happened, what each side must do."""
first = "red"                      # who plays the first turn: red or blue
bottom = "red"                     # whose baseline is row 1
victory_banners = 5                # banners to win
red_name = "Red"                   # optional names of the two armies
blue_name = "Blue"

[terrain]                          # every hex not listed is countryside
forest = ["D5", "V7"]
hill = ["L7", "M6"]
# also: river (impassable), ford, bridge, building, field, fence, palisade, ravine, castle

# [[objective]]                    # optional, repeatable: hexes worth Victory Banners
# name = "The ridge"
# hexes = ["L7", "M6"]
# side = "both"                    # red, blue or both
# banners = 1
# kind = "temporary"               # or "permanent"

# [rules]                          # optional
# tent_banners = 3                 # banners for taking the enemy command tent
# exit_banners = 1                 # banners per unit leaving by an exit hex
# notes = ["free text shown to players"]

[red]
command = 5                        # Command cards dealt (the player's command)
dragon = 3                         # Dragon cards dealt
honor = 5                          # Honor & Fortune tokens taken from the pool of 30
{red_tent}# exits = ["B1", "D1"]             # optional: baseline hexes its units may leave by
# {units_note}
# Leaders: foot, mounted, commander (with unit = "BG", in the tent). blocks = 2: a reduced unit.
pieces = [
{pieces(red_at, "M2")}
{red_cmdr}]

[blue]
command = 5
dragon = 3
honor = 5
{blue_tent}pieces = [
{pieces(blue_at, "M10")}
{blue_cmdr}]
'''


def edition_games() -> dict[str, str]:
    """The C&C game id of each edition a design may be written for (``{"gmt": ..., "zvezda": ...}``):
    the front ends read the ids here instead of naming them.

    >>> sorted(edition_games())
    ['gmt', 'zvezda']
    """
    return {g.edition: g.id for g in (CCSamuraiGame, ZvezdaGame)}


def check_scenario_text(text: str, where: str) -> tuple[scenario.Scenario | None, list[scenario.Problem]]:
    """Read a scenario file's text as ``load_scenario_file`` does and collect every problem,
    each with its line: TOML syntax (the first, where the reader stops), then every field
    pydantic rejects together with every board-level problem of the rest (a field error never
    hides a board error), and when both are sound what setting the battle up refuses. Then
    the warnings (``Problem.warning``: more blocks than the box holds, a section a side has
    nothing in), which do not stop the file from loading. The scenario is returned when no
    problem but warnings is found."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"at line (\d+)", str(exc))
        return None, [scenario.Problem(f"{where}: not valid TOML: {exc}", "", None, int(m.group(1)) if m else None)]
    lines = scenario.field_lines(text)
    try:
        scen = scenario.Scenario.model_validate(data)
    except pydantic.ValidationError as exc:
        problems = scenario.validation_problems(exc, where, data) + \
            scenario.board_problems_despite_fields(data, exc, where)
        return None, [scenario.with_line(p, lines) for p in problems]
    problems = scenario.scenario_problems(scen, where)
    if not problems:
        game = ZvezdaGame() if scen.scenario.edition == "zvezda" else CCSamuraiGame()
        try:
            game.setup(scen, 0)
        except FormatError as exc:
            problems = [scenario.Problem(f"{where}: {exc}", "position" if scen.position else "")]
    if not problems:
        problems = scenario.scenario_warnings(scen, where)
    refused = any(not p.warning for p in problems)
    return (None if refused else scen), [scenario.with_line(p, lines) for p in problems]
