"""Scenario and position files (TOML), validated with pydantic.

A *scenario* describes a battle's start; a *position* is a scenario file with a
``[position]`` table that overrides hands, decks, reserves, banners and whose
turn it is, so any start-of-turn situation can be written in one file. (Any
moment at all, mid-combat included, is a saved state: ``State.to_json()``.)
See ``docs/formats.md``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from kassen.engine.errors import FormatError
from kassen.engine.hexgrid import Hex, HexBoard

SCENARIO_DIR = Path(__file__).parent / "scenarios"
SIDES = ("red", "blue")

SideName = Literal["red", "blue"]


class Piece(BaseModel):
    """A unit (``unit``), a lone Leader (``leader`` only), or a unit with a Leader."""

    model_config = ConfigDict(extra="forbid")

    at: str
    unit: str | None = None
    leader: Literal["foot", "mounted", "commander"] | None = None
    blocks: int | None = Field(default=None, ge=1, le=4)

    @model_validator(mode="after")
    def _something(self) -> Piece:
        if self.unit is None and self.leader is None:
            raise ValueError("a piece needs a 'unit', a 'leader' or both")
        if self.leader == "commander" and self.unit not in (None, "BG"):
            raise ValueError("an Army Commander stands only with his bodyguards (unit = 'BG')")
        return self


class Army(BaseModel):
    model_config = ConfigDict(extra="forbid")

    command: int = Field(ge=1, le=12, description="Command cards dealt (the player's command)")
    dragon: int = Field(ge=0, le=10)
    honor: int = Field(ge=0, le=30)
    pieces: list[Piece]
    tent: str | None = None
    exits: list[str] = Field(default_factory=list)


class Meta(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    name: str
    year: int | None = None
    historical: bool = True
    note: str = ""
    first: SideName
    bottom: SideName
    victory_banners: int = Field(ge=1, le=20)
    #: the edition whose units, cards and rules the battle uses: "gmt" (cc-samurai) or
    #: "zvezda" (cc-samurai-zvezda)
    edition: Literal["gmt", "zvezda"] = "gmt"
    red_name: str = "Red"
    blue_name: str = "Blue"


class SpecialRules(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tent_banners: int = 3
    exit_banners: int = 1
    #: Nagashino: this side gains a permanent banner at the end of each of its turns in which
    #: it played an "Order One Unit" card (never its last, winning banner)
    order_one_banner: SideName | None = None
    notes: list[str] = Field(default_factory=list)


class SidePosition(BaseModel):
    model_config = ConfigDict(extra="forbid")

    hand: list[str] | None = None
    dragons: list[str] | None = None
    honor: int | None = Field(default=None, ge=0)
    banners: int | None = Field(default=None, ge=0)
    command: int | None = Field(default=None, ge=1)


class Position(BaseModel):
    """Overrides for a start-of-turn position."""

    model_config = ConfigDict(extra="forbid")

    active: SideName | None = None
    turn: int = Field(default=1, ge=1)
    red: SidePosition = Field(default_factory=SidePosition)
    blue: SidePosition = Field(default_factory=SidePosition)
    command_deck: list[str] | None = Field(default=None, description="top card first")
    dragon_deck: list[str] | None = Field(default=None, description="top card first")
    last_played: dict[SideName, str] = Field(default_factory=dict)


class Objective(BaseModel):
    """A hex (or group of hexes) worth Victory Banners to the side that holds it."""

    model_config = ConfigDict(extra="forbid")

    name: str = ""
    hexes: list[str] = Field(min_length=1)
    side: Literal["red", "blue", "both"] = "both"
    banners: int = Field(default=1, ge=1, le=10)
    kind: Literal["temporary", "permanent"] = "temporary"


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scenario: Meta
    terrain: dict[str, list[str]] = Field(default_factory=dict)
    rules: SpecialRules = Field(default_factory=SpecialRules)
    objective: list[Objective] = Field(default_factory=list)
    red: Army
    blue: Army
    position: Position | None = None

    @field_validator("terrain")
    @classmethod
    def _terrain_lists(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        return v

    def army(self, side: int) -> Army:
        return self.red if side == 0 else self.blue


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a scenario file: ``message`` is what the loader says
    (``"<file>: field <field>: <what>"``), ``field`` the dotted field it is in
    (``red.pieces[3].at``; empty for the whole file), ``hex`` the hex it is about if any,
    ``line`` the file's line (1-based) when the text is known. A ``warning`` does not stop the
    file from loading (``kassen run`` plays it): it tells the designer something the table
    would notice (more blocks than the box holds, a section a side has nothing in)."""

    message: str
    field: str = ""
    hex: str | None = None
    line: int | None = None
    warning: bool = False

    @property
    def detail(self) -> str:
        """The message without the file name in front."""
        _, sep, rest = self.message.partition(": ")  # every message starts "<file>: "
        return rest if sep else self.message


def _field_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _format_validation(exc: ValidationError, where: str) -> str:
    return "\n".join(p.message for p in validation_problems(exc, where, {}))


def validation_problems(exc: ValidationError, where: str, data: dict[str, Any]) -> list[Problem]:
    """One :class:`Problem` per error pydantic found in ``data`` (the file's raw tables), each
    with its field and, where the error is about one, its hex (no line yet: :func:`with_line`)."""
    out = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(top level)"
        out.append(Problem(f"{where}: field {loc}: {err['msg']}", _field_path(tuple(err["loc"])),
                           _hex_in(data, tuple(err["loc"]))))
    return out


def _hex_in(data: Any, loc: tuple[int | str, ...]) -> str | None:
    """The hex a pydantic error is about: the ``at`` of the piece it is in, or the hex
    written in a hex field (``at``, ``tent``, an item of ``exits``/``hexes``/a terrain list)."""
    node: Any = data
    found: str | None = None
    for k, part in enumerate(loc):
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return found
        if isinstance(node, dict) and isinstance(node.get("at"), str):
            found = node["at"]
        if isinstance(node, str) and (part in ("at", "tent") or isinstance(part, int) and k > 0
                                      and (loc[k - 1] in ("exits", "hexes") or loc[0] == "terrain")):
            found = node
    return found


def parse_scenario(data: dict[str, Any], where: str) -> Scenario:
    """Validate raw TOML data; errors name the file, the field and what is wrong (every
    problem found, one per line)."""
    try:
        scen = Scenario.model_validate(data)
    except ValidationError as exc:
        raise FormatError(_format_validation(exc, where)) from None
    check_scenario(scen, where)
    return scen


def check_scenario(scen: Scenario, where: str) -> None:
    """Board-level checks pydantic cannot do (``scenario_problems``): every problem, one a line."""
    problems = scenario_problems(scen, where)
    if problems:
        raise FormatError("\n".join(p.message for p in problems))


def scenario_problems(scen: Scenario, where: str, ignore: frozenset[str] = frozenset()) -> list[Problem]:
    """Board-level checks pydantic cannot do: hexes exist, no two units share a hex, ...
    Every problem is collected, not only the first. The fields in ``ignore`` (``red.pieces[3]``,
    ``terrain.forest[2]``, ``objective[0]``, ``red.tent``: stand-ins for values pydantic
    refused, :func:`board_problems_despite_fields`) are skipped with everything about them."""
    from kassen.rulesets.cc_samurai.data import load_tables

    tables = load_tables(scen.scenario.edition)
    board = HexBoard()
    problems: list[Problem] = []

    def bad(field: str, what: str, hex_name: str | None = None) -> None:
        problems.append(Problem(f"{where}: field {field}: {what}", field, hex_name))

    def hx(text: str, field: str) -> Hex | None:
        try:
            return board.parse(text)
        except FormatError as exc:
            bad(field, str(exc))
            return None

    seen_terrain: dict[Hex, str] = {}
    for slug, hexes in scen.terrain.items():
        if slug not in tables.terrain or slug in ("countryside", "tent"):
            known = ", ".join(t for t in tables.terrain if t not in ("countryside", "tent"))
            bad(f"terrain.{slug}", f"unknown terrain (known: {known}; tents go in [red]/[blue] tent)")
            continue
        for i, t in enumerate(hexes):
            if f"terrain.{slug}[{i}]" in ignore:
                continue
            h = hx(t, f"terrain.{slug}[{i}]")
            if h is None:
                continue
            if h in seen_terrain:
                bad(f"terrain.{slug}[{i}]", f"{t} already has terrain {seen_terrain[h]}", t)
                continue
            seen_terrain[h] = slug
    occupied: dict[Hex, str] = {}
    for side in SIDES:
        army = scen.red if side == "red" else scen.blue
        commanders = 0
        tent_refused = f"{side}.tent" in ignore  # a tent pydantic refused: nothing about it is judged
        tent_h = hx(army.tent, f"{side}.tent") if army.tent is not None else None
        for i, p in enumerate(army.pieces):
            # the checks in the order the loader has always made them (the first one is the
            # message a single-error loader gave)
            field = f"{side}.pieces[{i}]"
            if field in ignore:
                continue
            h = hx(p.at, f"{field}.at")
            if h is not None:
                if h in occupied:
                    bad(field, f"{p.at} is already occupied by {occupied[h]}", p.at)
                else:
                    occupied[h] = f"{side} pieces[{i}]"
            if p.unit is not None and p.unit not in tables.units:
                bad(f"{field}.unit", f"unknown unit {p.unit!r} (known: {', '.join(tables.units)})", p.at)
            if h is not None and seen_terrain.get(h) == "river":
                bad(field, f"{p.at} is a river hex", p.at)
            if h is not None and p.leader is not None and board.is_half(h):
                bad(field, f"a Leader may never stand on a half-hex ({p.at})", p.at)
            if p.unit in tables.units and p.leader == "foot" and tables.units[p.unit].cavalry:
                bad(field, "a foot Leader may not lead a cavalry unit", p.at)
            if p.unit == "BG" and p.leader != "commander":
                bad(field, "bodyguards stand only with their Army Commander", p.at)
            if p.leader == "commander":
                commanders += 1
                if h is not None and not tent_refused and (army.tent is None or (tent_h is not None and tent_h != h)):
                    bad(field, f"the Army Commander must start in his command tent ({side}.tent)", p.at)
            if p.blocks is not None and p.unit is None:
                bad(f"{field}.blocks", "only units have blocks", p.at)
        if commanders > 1:
            bad(f"{side}.pieces", "at most one Army Commander")
        if army.tent is not None:
            if tent_h is not None and tent_h in seen_terrain:
                bad(f"{side}.tent", f"{army.tent} already has terrain {seen_terrain[tent_h]}", army.tent)
            if tables.rules.tent_removed_when_empty and commanders == 0 and not tent_refused:
                bad(f"{side}.tent", f"in the {scen.scenario.edition} edition a command tent "
                    "is always occupied: place the Army Commander and his bodyguards on it", army.tent)
        for i, e in enumerate(army.exits):
            if f"{side}.exits[{i}]" in ignore:
                continue
            h = hx(e, f"{side}.exits[{i}]")
            if h is not None and board.row(h) not in (0, board.rows - 1):
                bad(f"{side}.exits[{i}]", f"{e} is not on a baseline", e)
    for i, obj in enumerate(scen.objective):
        if f"objective[{i}]" in ignore:
            continue
        for j, t in enumerate(obj.hexes):
            if f"objective[{i}].hexes[{j}]" in ignore:
                continue
            h = hx(t, f"objective[{i}].hexes[{j}]")
            if h is not None and seen_terrain.get(h) == "river":
                bad(f"objective[{i}].hexes[{j}]", f"{t} is a river hex", t)
    if scen.position is not None:
        pos = scen.position
        for side in SIDES:
            sp = pos.red if side == "red" else pos.blue
            for i, slug in enumerate(sp.hand or []):
                if slug not in tables.command:
                    bad(f"position.{side}.hand[{i}]", f"unknown Command card {slug!r}")
            for i, slug in enumerate(sp.dragons or []):
                if slug not in tables.dragon:
                    bad(f"position.{side}.dragons[{i}]", f"unknown Dragon card {slug!r}")
        for i, slug in enumerate(pos.command_deck or []):
            if slug not in tables.command:
                bad(f"position.command_deck[{i}]", f"unknown Command card {slug!r}")
        for i, slug in enumerate(pos.dragon_deck or []):
            if slug not in tables.dragon:
                bad(f"position.dragon_deck[{i}]", f"unknown Dragon card {slug!r}")
        total = scen.red.honor + scen.blue.honor
        if (pos.red.honor or 0) + (pos.blue.honor or 0) > 30 or total > 30:
            bad("position", "reserves exceed the 30 Honor & Fortune tokens")
    return problems


#: what a required field refused by pydantic stands in with while the rest of the file is
#: judged (:func:`board_problems_despite_fields`); a stand-in is never itself judged
_STAND_INS: dict[tuple[str, ...], Any] = {
    ("scenario",): {"id": "design", "name": "design", "first": "red", "bottom": "red", "victory_banners": 1},
    ("scenario", "id"): "design", ("scenario", "name"): "design", ("scenario", "first"): "red",
    ("scenario", "bottom"): "red", ("scenario", "victory_banners"): 1,
    ("army",): {"command": 1, "dragon": 0, "honor": 0, "pieces": []},
    ("army", "command"): 1, ("army", "dragon"): 0, ("army", "honor"): 0, ("army", "pieces"): [],
}
#: a piece, objective or hex of a list set aside (its field is skipped: ``scenario_problems``'s ``ignore``)
_SET_ASIDE_PIECE: dict[str, Any] = {"at": "", "leader": "foot"}


def _set_aside(data: dict[str, Any], loc: tuple[int | str, ...], kind: str, ignore: set[str]) -> bool:
    """Put aside the value pydantic refused at ``loc`` so the rest of ``data`` validates: an
    unknown key or an optional field is dropped, a required one gets a stand-in, a piece,
    objective or list hex is replaced by a stand-in whose field goes into ``ignore``. False
    when the rest cannot be judged without it (the edition: every unit and terrain depend on it)."""
    if not loc:
        return False
    parent: Any = data
    for part in loc[:-1]:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            return False
    last = loc[-1]
    top = loc[0]
    if kind == "extra_forbidden" and isinstance(parent, dict):
        parent.pop(last, None)
        return True
    if top == "scenario":
        if len(loc) >= 2 and loc[1] == "edition":
            return False
        key = ("scenario",) + ((str(loc[1]),) if len(loc) >= 2 else ())
        if len(loc) <= 2 and key in _STAND_INS:
            if len(loc) == 1:
                data["scenario"] = dict(_STAND_INS[key])
            else:
                data["scenario"][loc[1]] = _STAND_INS[key]
        elif len(loc) == 2 and isinstance(data.get("scenario"), dict):
            data["scenario"].pop(loc[1], None)  # an optional field: its default
        else:
            return False
        return True
    if top in SIDES:
        if len(loc) == 1:
            data[top] = dict(_STAND_INS[("army",)], pieces=[])
            return True
        army: dict[str, Any] = data[top]
        what = str(loc[1])
        if len(loc) == 2 and ("army", what) in _STAND_INS:
            army[what] = [] if what == "pieces" else _STAND_INS[("army", what)]
        elif what == "tent" and len(loc) == 2:
            army.pop("tent", None)
            ignore.add(f"{top}.tent")
        elif what == "exits" and len(loc) == 2:
            army.pop("exits", None)
        elif what == "exits" and isinstance(loc[2], int):
            army["exits"][loc[2]] = ""
            ignore.add(f"{top}.exits[{loc[2]}]")
        elif what == "pieces" and isinstance(loc[2], int):
            i = loc[2]
            piece = army["pieces"][i]
            if len(loc) == 4 and loc[3] in ("unit", "leader", "blocks") and isinstance(piece, dict):
                piece.pop(loc[3], None)
                if piece.get("unit") is None and piece.get("leader") is None:
                    army["pieces"][i] = dict(_SET_ASIDE_PIECE)
                    ignore.add(f"{top}.pieces[{i}]")
            else:
                army["pieces"][i] = dict(_SET_ASIDE_PIECE)
                ignore.add(f"{top}.pieces[{i}]")
        else:
            return False
        return True
    if top == "terrain":
        if len(loc) == 1:
            data["terrain"] = {}
        elif len(loc) == 2:
            data["terrain"].pop(loc[1], None)
        else:
            data["terrain"][loc[1]][loc[2]] = ""
            ignore.add(f"terrain.{loc[1]}[{loc[2]}]")
        return True
    if top == "objective":
        if len(loc) == 1:
            data["objective"] = []
            return True
        k = loc[1]
        if len(loc) == 4 and loc[2] == "hexes" and isinstance(loc[3], int):
            data["objective"][k]["hexes"][loc[3]] = ""
            ignore.add(f"objective[{k}].hexes[{loc[3]}]")
        elif len(loc) == 3 and loc[2] in ("name", "side", "banners", "kind") and isinstance(parent, dict):
            parent.pop(last, None)
        else:
            data["objective"][k] = {"hexes": [""]}
            ignore.add(f"objective[{k}]")
        return True
    if top in ("rules", "position"):
        data.pop(str(top), None)  # the defaults; a position refused is not judged
        return True
    return False


def board_problems_despite_fields(data: dict[str, Any], exc: ValidationError, where: str) -> list[Problem]:
    """The board-level problems (:func:`scenario_problems`) of a file whose fields pydantic
    refused, so that a field error never hides a board error: each refused value is set aside
    (:func:`_set_aside`) and the rest judged as the loader would judge it. ``[]`` when the rest
    cannot be judged (the edition itself refused)."""
    import copy

    data = copy.deepcopy(data)
    ignore: set[str] = set()
    error: ValidationError | None = exc
    for _ in range(8):  # each round sets aside what the last refused; nested refusals need a few
        assert error is not None
        for err in error.errors():
            if not _set_aside(data, tuple(err["loc"]), str(err["type"]), ignore):
                return []
        try:
            scen = Scenario.model_validate(data)
        except ValidationError as again:
            error = again
            continue
        return scenario_problems(scen, where, frozenset(ignore))
    return []


#: the blocks in one box of the GMT edition for each side (000:36-50 "CONTENTS" and 000:180
#: "Applying the Stickers"; ruling R48): the per-type counts the sticker instructions give,
#: and the size classes' totals halved between the two colours (spares included)
COMPONENTS: dict[str, dict[str, Any]] = {
    "gmt": {
        "units": {"SSp": 20, "SB": 12, "ASp": 32},
        "classes": {"small blocks for foot units": (("SSp", "SB", "ASp", "AB", "AA", "LI"), 110),
                    "medium blocks for cavalry units": (("SSpC", "SBC"), 34)},
        "leaders": {"foot": 5, "mounted": 4},
        "source": "000:45-50, 000:180",
    },
}


def scenario_warnings(scen: Scenario, where: str) -> list[Problem]:
    """What a sound scenario tells the designer without being refused (``kassen run`` plays
    it): more blocks or Leaders of a kind than one box holds for a side (R48; the GMT edition,
    whose box the rulebook lists), and a section where a side has no unit or Leader, so the
    Command cards that order only there would order nothing (000:606, R49)."""
    from kassen.rulesets.cc_samurai.board import sections_of
    from kassen.rulesets.cc_samurai.data import load_tables

    tables = load_tables(scen.scenario.edition)
    board = HexBoard()
    out: list[Problem] = []

    def warn(field: str, what: str) -> None:
        out.append(Problem(f"{where}: field {field}: warning: {what}", field, None, None, True))

    box = COMPONENTS.get(scen.scenario.edition)
    bottom = 0 if scen.scenario.bottom == "red" else 1
    for s, side in enumerate(SIDES):
        army = scen.army(s)
        name = scen.scenario.red_name if side == "red" else scen.scenario.blue_name
        blocks: dict[str, int] = {}
        leaders: dict[str, int] = {}
        for p in army.pieces:
            if p.unit is not None and p.unit in tables.units:
                blocks[p.unit] = blocks.get(p.unit, 0) + (p.blocks or tables.units[p.unit].blocks)
            if p.leader is not None:
                leaders[p.leader] = leaders.get(p.leader, 0) + 1
        if box is not None:
            one_box = f"one box holds {{n}} for each side ({box['source']}): a table with one box cannot set it up"
            for code, most in box["units"].items():
                if blocks.get(code, 0) > most:
                    warn(f"{side}.pieces", f"{name} has {blocks[code]} {tables.units[code].name} blocks; "
                         + one_box.format(n=most))
            for what, (codes, most) in box["classes"].items():
                n = sum(blocks.get(c, 0) for c in codes)
                if n > most:
                    warn(f"{side}.pieces", f"{name} has {n} {what}; " + one_box.format(n=most))
            for kind, most in box["leaders"].items():
                if leaders.get(kind, 0) > most:
                    warn(f"{side}.pieces", f"{name} has {leaders[kind]} {kind} Leaders; " + one_box.format(n=most))
        held: set[str] = set()
        for p in army.pieces:
            try:
                held |= sections_of(board.parse(p.at), s, bottom)
            except FormatError:
                continue
        for section in ("left", "center", "right"):
            if section in held:
                continue
            idle = [c for c in tables.command.values()
                    if c.orders and all(o.section == section for o in c.orders)]
            if not idle:
                continue
            copies = sum(c.copies for c in idle)
            names = ", ".join(sorted({c.name for c in idle}))
            warn(f"{side}.pieces", f"{name} has no unit or Leader in its {section} section: {copies} Command "
                 f"cards order only there ({names}) and would order nothing (000:606)")
    return out


def load_scenario_file(path: Path) -> Scenario:
    """Read and validate a scenario or position file."""
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise FormatError(f"{path}: cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{path}: not valid TOML: {exc}") from None
    return parse_scenario(data, str(path))


def builtin_scenarios(edition: str = "gmt") -> dict[str, Path]:
    """Scenario id -> file, for the scenarios shipped with Kassen for ``edition``
    (GMT battles in ``scenarios/``, Zvezda battles in ``scenarios/zvezda/``)."""
    return dict(_builtin_scenarios(edition))


@lru_cache(maxsize=4)
def _builtin_scenarios(edition: str) -> dict[str, Path]:
    # the shipped files never change while Kassen runs: read their ids once
    out: dict[str, Path] = {}
    folder = SCENARIO_DIR if edition == "gmt" else SCENARIO_DIR / edition
    for path in sorted(folder.glob("*.toml")):
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        out[str(data["scenario"]["id"])] = path
    return out


def load_builtin(scenario_id: str, edition: str = "gmt") -> Scenario:
    """A shipped scenario, validated: a copy of its own (the caller may change it)."""
    return shared_builtin(scenario_id, edition).model_copy(deep=True)


def shared_builtin(scenario_id: str, edition: str = "gmt") -> Scenario:
    """A shipped scenario, read and validated once per run and shared: read it, never change it
    (``CCSamuraiGame.new_state`` sets every game up from it)."""
    files = builtin_scenarios(edition)
    if scenario_id not in files:
        raise FormatError(f"unknown scenario {scenario_id!r}; known: {', '.join(files)}")
    return _shared_builtin(scenario_id, edition)


@lru_cache(maxsize=64)
def _shared_builtin(scenario_id: str, edition: str) -> Scenario:
    # the shipped files never change while Kassen runs (as _builtin_scenarios assumes)
    return load_scenario_file(_builtin_scenarios(edition)[scenario_id])


def with_line(p: Problem, lines: dict[str, int]) -> Problem:
    """``p`` with the line of its field (or of the nearest enclosing field that has one) from
    :func:`field_lines`; ``p`` as it is when none is known."""
    field = p.field
    while field:
        if field in lines:
            return Problem(p.message, p.field, p.hex, lines[field], p.warning)
        cut = max(field.rfind("."), field.rfind("["))
        field = field[:cut] if cut > 0 else ""
    return p


_BARE = re.compile(r"[A-Za-z0-9_-]+")


def field_lines(text: str) -> dict[str, int]:
    """Dotted field path (``red.pieces[3].at``, ``terrain.forest[1]``, ``objective[0]``) ->
    the line (1-based) where its value starts, for a TOML text ``tomllib`` reads (tomllib
    keeps no positions). A scan of the TOML grammar's tables, keys, arrays and inline tables."""
    out: dict[str, int] = {}
    aot: dict[str, int] = {}
    pos = 0
    n = len(text)

    def line_at(i: int) -> int:
        return text.count("\n", 0, i) + 1

    def skip(i: int, newlines: bool) -> int:
        while i < n:
            c = text[i]
            if c == "#":
                while i < n and text[i] != "\n":
                    i += 1
            elif c in " \t\r" or (newlines and c == "\n"):
                i += 1
            else:
                break
        return i

    def key(i: int) -> tuple[list[str], int]:
        parts: list[str] = []
        while i < n:
            i = skip(i, False)
            if text[i] in "\"'":
                q = text[i]
                j = text.index(q, i + 1)
                parts.append(text[i + 1:j])
                i = j + 1
            else:
                m = _BARE.match(text, i)
                if m is None:
                    break
                parts.append(m.group())
                i = m.end()
            i = skip(i, False)
            if i < n and text[i] == ".":
                i += 1
                continue
            break
        return parts, i

    def join(prefix: str, parts: list[str]) -> str:
        return ".".join(([prefix] if prefix else []) + parts)

    def value(i: int, path: str) -> int:
        out.setdefault(path, line_at(i))
        c = text[i] if i < n else ""
        if text.startswith('"""', i) or text.startswith("'''", i):
            q = text[i:i + 3]
            j = i + 3
            while True:
                j = text.index(q, j)
                if q == '"""' and text[j - 1] == "\\" and text[j - 2] != "\\":
                    j += 1
                    continue
                break
            while text.startswith(q[0], j + 3):
                j += 1
            return j + 3
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            return j + 1
        if c == "'":
            return text.index("'", i + 1) + 1
        if c == "[":
            i, k = skip(i + 1, True), 0
            while i < n and text[i] != "]":
                i = skip(value(i, f"{path}[{k}]"), True)
                k += 1
                if i < n and text[i] == ",":
                    i = skip(i + 1, True)
            return i + 1
        if c == "{":
            i = skip(i + 1, False)
            while i < n and text[i] != "}":
                parts, i = key(i)
                i = skip(i, False)
                if i >= n or text[i] != "=":
                    return i
                i = skip(value(skip(i + 1, False), join(path, parts)), False)
                if i < n and text[i] == ",":
                    i = skip(i + 1, False)
            return i + 1
        j = i
        while j < n and text[j] not in ",]}\n#":
            j += 1
        if j == i:
            raise ValueError("no value here")  # not TOML: stop locating (every loop moves on)
        return j

    prefix = ""
    try:
        while True:
            pos = skip(pos, True)
            if pos >= n:
                break
            if text.startswith("[[", pos):
                parts, pos = key(pos + 2)
                name = ".".join(parts)
                k = aot.get(name, -1) + 1
                aot[name] = k
                prefix = f"{name}[{k}]"
                out.setdefault(prefix, line_at(pos))
                pos = text.index("]]", pos) + 2
            elif text[pos] == "[":
                parts, pos = key(pos + 1)
                prefix = ".".join(parts)
                out.setdefault(prefix, line_at(pos))
                pos = text.index("]", pos) + 1
            else:
                parts, pos = key(pos)
                pos = skip(pos, False)
                if not parts or pos >= n or text[pos] != "=":
                    break
                pos = value(skip(pos + 1, False), join(prefix, parts))
    except (ValueError, IndexError):
        pass  # past what can be located: the fields found so far keep their lines
    return out
