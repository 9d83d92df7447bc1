"""Data files of An Honourable Victory!: unit tables, army lists (clans) and battles.

All TOML, validated with pydantic, loaded by explicit calls (never at import).
A malformed file raises :class:`~kassen.engine.errors.FormatError` naming the file
and the field.

Army list (``data/clans.toml``, or any file with ``[[clan]]`` tables)::

    [[clan]]
    id = "takeda"
    name = "Takeda"
    daimyo = "Takeda Shingen"
    units = [
      { name = "Red Riders", class = "mounted", stands = 4, quality = "veteran" },
      { name = "Yari Ashigaru", class = "foot", weapon = "long-spear", stands = 6 },
      { name = "Archers", class = "light-foot", weapon = "bow", stands = 4 },
    ]

Battle (``data/battles/<id>.toml``)::

    [battle]
    id = "meeting-engagement"
    name = "A Meeting Engagement"
    [options]            # defaults of this battle; any may be overridden when starting
    width = 5
    turn_limit = 12
    quality = "off"      # "off" | "chosen" (the army list's) | "rolled" (Appendix B table)
    terrain = true
    [terrain]            # Appendix A: zones of each feature; escarpment edges as zone pairs
    hill = ["B2"]
    escarpments = [["C2", "C3"]]
    [south]
    clan = "takeda"
    daimyo = "C1"
    deploy = [{ unit = "Red Riders", zone = "C1", formation = "attack" }]
    [north]
    ...

A battle may carry its own army lists as ``[[clan]]`` tables (the army-list format);
they are used beside (and before) the ready-made clans.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from kassen.engine.errors import FormatError

DATA_DIR = Path(__file__).parent / "data"
BATTLE_DIR = DATA_DIR / "battles"

Quality = Literal["green", "seasoned", "veteran"]
Formation = Literal["attack", "defensive", "open"]


class ClassSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    weapons: list[str]
    min_stands: int = Field(ge=1)
    max_stands: int = Field(ge=1)
    actions: int = Field(ge=1, le=2)
    max_per_clan: int | None = None


class WeaponSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    cv: int = Field(ge=1, le=5)
    fires: Literal["phase", "reacting", "never"]
    max_per_clan: int | None = None


class Tables(BaseModel):
    """``data/units.toml``: unit classes and weapons."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    classes: dict[str, ClassSpec] = Field(alias="class")
    weapons: dict[str, WeaponSpec] = Field(alias="weapon")
    quality: dict[str, list[Quality]]


class UnitEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    name: str = Field(min_length=1)
    cls: Literal["light-foot", "foot", "mounted"] = Field(alias="class")
    weapon: str | None = None
    stands: int = Field(ge=1)
    quality: Quality = "seasoned"


class Clan(BaseModel):
    """One army list."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1)
    name: str
    daimyo: str = "the Daimyo"
    units: list[UnitEntry] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_names(self) -> Clan:
        names = [u.name for u in self.units]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError(f"unit names must be unique within a clan: {sorted(dup)}")
        return self


class ClanFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    clan: list[Clan]


class Deploy(BaseModel):
    model_config = ConfigDict(extra="forbid")
    unit: str
    zone: str
    formation: Formation = "attack"


class BattleSide(BaseModel):
    model_config = ConfigDict(extra="forbid")
    clan: str
    daimyo: str
    deploy: list[Deploy]


class BattleMeta(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str
    note: str = ""


class Options(BaseModel):
    """Battle options: the text's "players may agree" points, with its suggestions as defaults."""

    model_config = ConfigDict(extra="forbid")
    width: int = Field(default=5, ge=3, le=9)
    limit: int = Field(default=4, ge=1, le=9)
    reserves: bool = True
    turn_limit: int = Field(default=12, ge=1, le=100)
    quality: Literal["off", "chosen", "rolled"] = "off"
    terrain: bool = True
    min_stands: int = Field(default=2, ge=1, le=9)
    max_foot_stands: int = Field(default=9, ge=1, le=20)
    max_mounted_stands: int = Field(default=6, ge=1, le=20)
    #: 001:921 "a side can always concede defeat"; ``false`` takes ``concede`` away (the research
    #: envs' default: uniform-random play would otherwise mostly end by concession)
    concede: bool = True

    @field_validator("width")
    @classmethod
    def _odd_width(cls, v: int) -> int:
        if v % 2 == 0:
            raise ValueError("width must be odd, so that the table has a Centre Zone (ruling H1)")
        return v


class TerrainSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hill: list[str] = Field(default_factory=list)
    woods: list[str] = Field(default_factory=list, max_length=1)
    village: list[str] = Field(default_factory=list, max_length=1)
    rough: list[str] = Field(default_factory=list)
    impassable: list[str] = Field(default_factory=list)
    bog: list[str] = Field(default_factory=list, max_length=1)
    escarpments: list[tuple[str, str]] = Field(default_factory=list)


class UnitPosition(BaseModel):
    """One unit's place and markers in a position; what it leaves out stays as deployed."""

    model_config = ConfigDict(extra="forbid")
    zone: str | None = None
    facing: Literal["N", "E", "S", "W"] | None = None
    formation: Literal["attack", "defensive", "open"] | None = None
    stands: int | None = Field(default=None, ge=1)
    hits: int | None = Field(default=None, ge=0)
    #: the red marker (fired this turn) and the yellow one (reacted this movement phase)
    fired: bool | None = None
    reacted: bool | None = None
    #: a mounted unit fighting on foot
    dismounted: bool | None = None
    status: Literal["table", "reserve", "routed"] | None = None


class Contact(BaseModel):
    """An engagement: ``unit``'s front against ``target``'s ``facet``."""

    model_config = ConfigDict(extra="forbid")
    unit: str
    target: str
    facet: Literal["front", "right", "rear", "left"] = "front"


class Position(BaseModel):
    """A battle file's ``[position]``: any moment between two phases, set up in one file."""

    model_config = ConfigDict(extra="forbid")
    turn: int = Field(default=1, ge=1)
    #: where play starts: the turn's initiative throw, or one of its phases
    phase: Literal["initiative", "firing", "hand-to-hand", "movement"] = "initiative"
    #: who holds the initiative this turn (needed from the Firing Phase on)
    initiative: Literal["south", "north"] | None = None
    #: whose movement phase it is (default: the side with the initiative, which moves first)
    mover: Literal["south", "north"] | None = None
    daimyo: dict[Literal["south", "north"], str] = Field(default_factory=dict)
    units: dict[str, UnitPosition] = Field(default_factory=dict)
    contacts: list[Contact] = Field(default_factory=list)


class Battle(BaseModel):
    model_config = ConfigDict(extra="forbid")
    battle: BattleMeta
    #: army lists of this battle's own, beside the ready-made clans (same format as clans.toml)
    clan: list[Clan] = Field(default_factory=list)
    options: Options = Field(default_factory=Options)
    terrain: TerrainSpec = Field(default_factory=TerrainSpec)
    south: BattleSide
    north: BattleSide
    position: Position | None = None

    def side(self, seat: int) -> BattleSide:
        return self.south if seat == 0 else self.north


def _where(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"]) or "(top level)"
    return f"field {loc}: {err['msg']}"


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise FormatError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{path}: not valid TOML: {exc}") from None


@lru_cache(maxsize=1)
def load_tables() -> Tables:
    """The unit classes and weapons (``data/units.toml``)."""
    path = DATA_DIR / "units.toml"
    try:
        return Tables.model_validate(_read(path))
    except ValidationError as exc:
        raise FormatError(f"{path}: {_where(exc)}") from None


def validate_clan(clan: Clan, tables: Tables, options: Options, where: str) -> None:
    """Organising Your Army: weapons by class, stands within limits, per-clan caps."""
    counts: dict[str, int] = {}
    for i, u in enumerate(clan.units):
        spec = tables.classes[u.cls]
        weapon = u.weapon or ("mounted" if u.cls == "mounted" else None)
        field = f"clan {clan.id!r} units[{i}] ({u.name})"
        if weapon not in spec.weapons:
            raise FormatError(f"{where}: {field}: a {spec.name} unit is armed with one of "
                              f"{', '.join(spec.weapons)}, not {weapon!r}")
        hi = options.max_mounted_stands if u.cls == "mounted" else options.max_foot_stands
        if not options.min_stands <= u.stands <= hi:
            raise FormatError(f"{where}: {field}: stands must be {options.min_stands}..{hi}, got {u.stands}")
        counts[u.cls] = counts.get(u.cls, 0) + 1
        counts["w:" + weapon] = counts.get("w:" + weapon, 0) + 1
    for cls, spec in tables.classes.items():
        if spec.max_per_clan is not None and counts.get(cls, 0) > spec.max_per_clan:
            raise FormatError(f"{where}: clan {clan.id!r}: at most {spec.max_per_clan} {spec.name} units "
                              f"per clan, got {counts[cls]}")
    for w, ws in tables.weapons.items():
        if ws.max_per_clan is not None and counts.get("w:" + w, 0) > ws.max_per_clan:
            raise FormatError(f"{where}: clan {clan.id!r}: at most {ws.max_per_clan} units with "
                              f"{ws.name} per clan, got {counts['w:' + w]}")


def parse_clans(data: dict[str, Any], where: str) -> dict[str, Clan]:
    """Army lists from parsed TOML, validated against the unit tables and default options."""
    try:
        cf = ClanFile.model_validate(data)
    except ValidationError as exc:
        raise FormatError(f"{where}: {_where(exc)}") from None
    out: dict[str, Clan] = {}
    tables = load_tables()
    for c in cf.clan:
        if c.id in out:
            raise FormatError(f"{where}: field clan.id: duplicate clan id {c.id!r}")
        validate_clan(c, tables, Options(), where)
        out[c.id] = c
    return out


def load_clans(path: Path | None = None) -> dict[str, Clan]:
    """The army lists of ``path`` (default: the ready-made clans, ``data/clans.toml``)."""
    p = path or DATA_DIR / "clans.toml"
    return parse_clans(_read(p), str(p))


def parse_battle(data: dict[str, Any], where: str) -> Battle:
    try:
        return Battle.model_validate(data)
    except ValidationError as exc:
        raise FormatError(f"{where}: {_where(exc)}") from None


def builtin_battles() -> list[str]:
    return sorted(p.stem.replace("_", "-") for p in BATTLE_DIR.glob("*.toml"))


def load_battle(name: str) -> tuple[Battle, str]:
    """A built-in battle id, or a path to a battle file; also returns where it came from."""
    path = Path(name)
    if not (name.endswith(".toml") or path.exists()):
        path = BATTLE_DIR / (name.replace("-", "_") + ".toml")
        if not path.exists():
            raise FormatError(f"unknown battle {name!r}; built-in battles: {', '.join(builtin_battles())}")
    return parse_battle(_read(path), str(path)), str(path)
