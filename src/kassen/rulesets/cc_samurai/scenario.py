"""Scenario and position files (TOML), validated with pydantic.

A *scenario* describes a battle's start; a *position* is a scenario file with a
``[position]`` table that overrides hands, decks, reserves, banners and whose
turn it is, so any start-of-turn situation can be written in one file. (Any
moment at all, mid-combat included, is a saved state: ``State.to_json()``.)
See ``docs/formats.md``.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from kassen.engine.errors import FormatError
from kassen.engine.hexgrid import HexBoard

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


def _format_validation(exc: ValidationError, where: str) -> str:
    lines = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(top level)"
        lines.append(f"{where}: field {loc}: {err['msg']}")
    return "\n".join(lines)


def parse_scenario(data: dict[str, Any], where: str) -> Scenario:
    """Validate raw TOML data; errors name the file, the field and what is wrong."""
    try:
        scen = Scenario.model_validate(data)
    except ValidationError as exc:
        raise FormatError(_format_validation(exc, where)) from None
    check_scenario(scen, where)
    return scen


def check_scenario(scen: Scenario, where: str) -> None:
    """Board-level checks pydantic cannot do: hexes exist, no two units share a hex, ..."""
    from kassen.rulesets.cc_samurai.data import load_tables

    tables = load_tables(scen.scenario.edition)
    board = HexBoard()

    def hx(text: str, field: str) -> tuple[int, ...]:
        try:
            return board.parse(text)
        except FormatError as exc:
            raise FormatError(f"{where}: field {field}: {exc}") from None

    seen_terrain: dict[tuple[int, ...], str] = {}
    for slug, hexes in scen.terrain.items():
        if slug not in tables.terrain or slug in ("countryside", "tent"):
            known = ", ".join(t for t in tables.terrain if t not in ("countryside", "tent"))
            raise FormatError(f"{where}: field terrain.{slug}: unknown terrain (known: {known}; tents go in [red]/[blue] tent)")
        for i, t in enumerate(hexes):
            h = hx(t, f"terrain.{slug}[{i}]")
            if h in seen_terrain:
                raise FormatError(f"{where}: field terrain.{slug}[{i}]: {t} already has terrain {seen_terrain[h]}")
            seen_terrain[h] = slug
    occupied: dict[tuple[int, ...], str] = {}
    for side in SIDES:
        army = scen.red if side == "red" else scen.blue
        commanders = 0
        for i, p in enumerate(army.pieces):
            field = f"{side}.pieces[{i}]"
            h = hx(p.at, f"{field}.at")
            if h in occupied:
                raise FormatError(f"{where}: field {field}: {p.at} is already occupied by {occupied[h]}")
            occupied[h] = f"{side} pieces[{i}]"
            if p.unit is not None and p.unit not in tables.units:
                raise FormatError(f"{where}: field {field}.unit: unknown unit {p.unit!r} (known: {', '.join(tables.units)})")
            if seen_terrain.get(h) == "river":
                raise FormatError(f"{where}: field {field}: {p.at} is a river hex")
            if p.leader is not None and board.is_half(h):
                raise FormatError(f"{where}: field {field}: a Leader may never stand on a half-hex ({p.at})")
            if p.unit and p.leader == "foot" and tables.units[p.unit].cavalry:
                raise FormatError(f"{where}: field {field}: a foot Leader may not lead a cavalry unit")
            if p.unit == "BG" and p.leader != "commander":
                raise FormatError(f"{where}: field {field}: bodyguards stand only with their Army Commander")
            if p.leader == "commander":
                commanders += 1
                if army.tent is None or hx(army.tent, f"{side}.tent") != h:
                    raise FormatError(f"{where}: field {field}: the Army Commander must start in his command tent ({side}.tent)")
            if p.blocks is not None and p.unit is None:
                raise FormatError(f"{where}: field {field}.blocks: only units have blocks")
        if commanders > 1:
            raise FormatError(f"{where}: field {side}.pieces: at most one Army Commander")
        if army.tent is not None:
            th = hx(army.tent, f"{side}.tent")
            if th in seen_terrain:
                raise FormatError(f"{where}: field {side}.tent: {army.tent} already has terrain {seen_terrain[th]}")
            if tables.rules.tent_removed_when_empty and commanders == 0:
                raise FormatError(f"{where}: field {side}.tent: in the {scen.scenario.edition} edition a command tent "
                                  "is always occupied: place the Army Commander and his bodyguards on it")
        for i, e in enumerate(army.exits):
            h = hx(e, f"{side}.exits[{i}]")
            if h[1] not in (0, board.rows - 1):
                raise FormatError(f"{where}: field {side}.exits[{i}]: {e} is not on a baseline")
    for i, obj in enumerate(scen.objective):
        for j, t in enumerate(obj.hexes):
            h = hx(t, f"objective[{i}].hexes[{j}]")
            if seen_terrain.get(h) == "river":
                raise FormatError(f"{where}: field objective[{i}].hexes[{j}]: {t} is a river hex")
    if scen.position is not None:
        pos = scen.position
        for side in SIDES:
            sp = pos.red if side == "red" else pos.blue
            for i, slug in enumerate(sp.hand or []):
                if slug not in tables.command:
                    raise FormatError(f"{where}: field position.{side}.hand[{i}]: unknown Command card {slug!r}")
            for i, slug in enumerate(sp.dragons or []):
                if slug not in tables.dragon:
                    raise FormatError(f"{where}: field position.{side}.dragons[{i}]: unknown Dragon card {slug!r}")
        for i, slug in enumerate(pos.command_deck or []):
            if slug not in tables.command:
                raise FormatError(f"{where}: field position.command_deck[{i}]: unknown Command card {slug!r}")
        for i, slug in enumerate(pos.dragon_deck or []):
            if slug not in tables.dragon:
                raise FormatError(f"{where}: field position.dragon_deck[{i}]: unknown Dragon card {slug!r}")
        total = scen.red.honor + scen.blue.honor
        if (pos.red.honor or 0) + (pos.blue.honor or 0) > 30 or total > 30:
            raise FormatError(f"{where}: field position: reserves exceed the 30 Honor & Fortune tokens")


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
