"""Kensei's tables: every table of the quick-reference sheet (seed 003) as data.

``data/sheet.toml`` holds the troop classes, volumes, weapons, armour, titles, clans,
commander levels, war machines, ammunition, impact types and the six battle scenarios;
``data/modifiers.toml`` the roll modifiers. Every entry keeps its sheet line
(``"003:183"``). The files are validated with pydantic and loaded only by an explicit
call (:func:`load_tables`, cached), never at import time. A malformed file raises
:class:`~kassen.engine.errors.FormatError` naming the file and the field.
"""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from kassen.engine.errors import FormatError

DATA_DIR = Path(__file__).parent / "data"
SHEET_FILE = DATA_DIR / "sheet.toml"
MODIFIERS_FILE = DATA_DIR / "modifiers.toml"

Band = Literal["short", "mid", "long", "artillery"]
BANDS: tuple[Band, ...] = ("short", "mid", "long", "artillery")
ImpactKind = Literal["explosive", "shrapnel", "devastating", "fire", "infectious"]
Roll = Literal["combat-dice", "combat-hit", "melee-damage", "shoot-dice", "shoot-hit", "shoot-damage",
               "artillery-dice", "artillery-damage"]
ROLLS: tuple[Roll, ...] = ("combat-dice", "combat-hit", "melee-damage", "shoot-dice", "shoot-hit",
                           "shoot-damage", "artillery-dice", "artillery-damage")

_SOURCE = re.compile(r"^003:\d+$")


def _check_source(v: str) -> str:
    if not _SOURCE.match(v):
        raise ValueError(f"a source is a sheet line such as '003:183', got {v!r}")
    return v


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Sourced(_Model):
    source: str

    @field_validator("source")
    @classmethod
    def _source(cls, v: str) -> str:
        return _check_source(v)


class CommandCards(Sourced):
    min_points: int = Field(ge=0)
    max_points: int | None = None
    cards: int = Field(ge=0)


class Commander(Sourced):
    name: str
    strategy: int
    cards: int
    terrain: int
    terrain_source: str


class OrderBand(Sourced):
    min: int
    max: int | None = None
    orders: int = Field(ge=1, le=2)
    ki: bool


class Order(Sourced):
    name: str
    kind: Literal["action", "reaction", "both"]
    type: Literal["movement", "combat", "support", "static", "spiritual"]


class Range(Sourced):
    name: str
    min_cm: int
    max_cm: int


class TroopClass(Sourced):
    name: str
    mov: tuple[int, int]
    at: tuple[int, int]
    ini: int
    ho: int
    wo: int = Field(ge=1)
    ki: int | None = None
    creature: bool = False
    armour: str | None = None
    volume: int | None = None

    @property
    def melee(self) -> int:
        return self.at[0]

    @property
    def ranged(self) -> int:
        return self.at[1]


class Volume(Sourced):
    description: str
    height_cm: int


class RangedWeapon(Sourced):
    name: str
    band: Literal["short", "mid", "long"]
    max_cm: int
    firearm: bool = False
    #: damage ignores worn armour when shot (003:176: firearms and crossbows)
    ignores_armour: bool = False


class Firearms(Sourced):
    text: str
    damage: int


class Armour(Sourced):
    name: str
    damage: int = Field(le=0)
    worn: bool
    text: str = ""


When = Literal["always", "charging", "charged", "vs-cavalry", "vs-types", "multiple-opponents", "vs-undead"]


class WeaponEffect(_Model):
    roll: Literal["dice", "hit", "damage"]
    value: int
    when: When
    vs: tuple[int, ...] = ()
    except_vs: tuple[int, ...] = ()
    except_charging: bool = False
    text: str
    source: str | None = None

    @field_validator("source")
    @classmethod
    def _source(cls, v: str | None) -> str | None:
        return None if v is None else _check_source(v)


class WeaponType(Sourced):
    type: int = Field(ge=0, le=7)
    category: str
    weapons: tuple[str, ...]
    effects: tuple[WeaponEffect, ...]


class Ability(_Model):
    id: str
    name: str
    text: str


class Clan(Sourced):
    name: str
    war_machines: str
    war_machines_source: str
    abilities: tuple[Ability, Ability]


class TitleRule(Sourced):
    text: str


class Title(Sourced):
    name: str
    rules: tuple[TitleRule, ...] = ()
    abilities: tuple[str, ...] = ()
    immune: tuple[str, ...] = ()
    stuns_per_wound: int = 2
    undead: bool = False
    creature: bool = False
    honour_fail: Literal["retreat", "stay-or-withdraw", "wound"] = "retreat"
    forbidden_orders: tuple[str, ...] = ()
    flee_dice: int | None = None
    loses_margin: bool = False
    regeneration: bool = False


class WarMachine(Sourced):
    name: str
    at: int
    ia: str
    bands: tuple[Band, ...]


class Ammunition(Sourced):
    name: str
    description: str
    po: int
    impact: ImpactKind
    short_only: bool = False
    short_only_source: str | None = None


class Impact(Sourced):
    name: str
    grows: Literal["diameter", "advance", "template"]
    cm_per_success: int = 0
    template_cm: int = 0
    damage: int = 0
    template_damage: int = 0
    ignores_armour: bool = False
    terror: bool = False
    text: str


class Scenario(Sourced):
    roll: int = Field(ge=1, le=6)
    id: str
    name: str


class Modifier(Sourced):
    """One named roll modifier: dice added, or an amount added to each die."""

    id: str = ""
    roll: str = ""
    name: str
    value: int
    per: Literal["each"] | None = None
    inference: bool = False


class Sheet(_Model):
    name: str
    command_cards: tuple[CommandCards, ...]
    commanders: dict[str, Commander]
    order_roll: tuple[OrderBand, ...]
    orders: dict[str, Order]
    ranges: dict[Band, Range]
    classes: dict[str, TroopClass]
    volumes: dict[str, Volume]
    ranged_weapons: dict[str, RangedWeapon]
    firearms: Firearms
    armour: dict[str, Armour]
    weapon_types: tuple[WeaponType, ...]
    clans: dict[str, Clan]
    titles: dict[str, Title]
    war_machines: dict[str, WarMachine]
    ammunition: dict[str, Ammunition]
    impacts: dict[ImpactKind, Impact]
    scenarios: tuple[Scenario, ...]

    @model_validator(mode="after")
    def _consistent(self) -> Sheet:
        if sorted(w.type for w in self.weapon_types) != list(range(8)):
            raise ValueError("weapon_types must hold the types 0 to 7 once each")
        if sorted(s.roll for s in self.scenarios) != list(range(1, 7)):
            raise ValueError("scenarios must hold the rolls 1 to 6 once each")
        for code, c in self.classes.items():
            if c.armour is not None and c.armour not in self.armour:
                raise ValueError(f"class {code}: unknown armour {c.armour!r}")
        for aid, a in self.ammunition.items():
            if a.impact not in self.impacts:
                raise ValueError(f"ammunition {aid}: unknown impact {a.impact!r}")
        return self


class Tables:
    """The sheet and its modifiers, with look-ups the rules need."""

    def __init__(self, sheet: Sheet, modifiers: dict[str, Modifier], difficulty: Modifier) -> None:
        self.sheet = sheet
        self.modifiers = modifiers
        self.difficulty = difficulty
        self._weapon_index: dict[str, int] = {}
        for wt in sheet.weapon_types:
            for w in wt.weapons:
                self._weapon_index[slug(w)] = wt.type

    def mod(self, mid: str) -> Modifier:
        """The modifier ``roll.id`` (e.g. ``combat-dice.charge-foot``)."""
        try:
            return self.modifiers[mid]
        except KeyError:
            raise KeyError(f"no Kensei modifier {mid!r}") from None

    def weapon_type(self, t: int) -> WeaponType:
        return next(w for w in self.sheet.weapon_types if w.type == t)

    def melee_weapon_type(self, name: str) -> int | None:
        """The hand-to-hand weapon type (0-7) of a weapon name, or ``None``."""
        return self._weapon_index.get(slug(name))

    def melee_weapon_names(self) -> list[str]:
        return sorted(self._weapon_index)

    def ranged_weapon(self, name: str) -> RangedWeapon | None:
        return self.sheet.ranged_weapons.get(slug(name))

    def command_cards(self, points: int, commander: str) -> int:
        """Command cards per turn for an army of ``points`` and its commander level (003:7-10, 003:76-78)."""
        base = 0
        for band in self.sheet.command_cards:
            if points >= band.min_points and (band.max_points is None or points <= band.max_points):
                base = band.cards
        return base + self.sheet.commanders[commander].cards

    def order_band(self, total: int) -> OrderBand:
        """The order-roll band of a total 1D6 + INI (003:82-85); below 1 counts as the first band."""
        for band in self.sheet.order_roll:
            if total >= band.min and (band.max is None or total <= band.max):
                return band
        return self.sheet.order_roll[0]

    def scenario(self, roll: int) -> Scenario:
        return next(s for s in self.sheet.scenarios if s.roll == roll)


def slug(name: str) -> str:
    """``"Jumonji Yari"`` -> ``"jumonji-yari"``; ``"Ishitsubute (sling)"`` -> ``"ishitsubute"``."""
    base = re.sub(r"\(.*?\)", "", name).strip().lower()
    return re.sub(r"[^a-z0-9]+", "-", base).strip("-")


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FormatError(f"{path}: cannot read the Kensei table: {exc.strerror or exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{path}: not valid TOML: {exc}") from None


def _where(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    return f"field {where!r}: {err['msg']}"


def parse_sheet(data: dict[str, Any], source: str) -> Sheet:
    try:
        return Sheet.model_validate(data)
    except ValidationError as exc:
        raise FormatError(f"{source}: {_where(exc)}") from None


def parse_modifiers(data: dict[str, Any], source: str) -> tuple[dict[str, Modifier], Modifier]:
    out: dict[str, Modifier] = {}
    try:
        difficulty = Modifier.model_validate({**data.get("difficulty", {}), "id": "difficulty"})
    except ValidationError as exc:
        raise FormatError(f"{source}: table 'difficulty': {_where(exc)}") from None
    for roll, entries in data.items():
        if roll == "difficulty":
            continue
        if roll not in ROLLS:
            raise FormatError(f"{source}: unknown roll {roll!r}; known: {', '.join(ROLLS)}")
        if not isinstance(entries, dict):
            raise FormatError(f"{source}: {roll!r} must be a table of modifiers")
        for mid, entry in entries.items():
            try:
                out[f"{roll}.{mid}"] = Modifier.model_validate({**entry, "id": f"{roll}.{mid}", "roll": roll})
            except ValidationError as exc:
                raise FormatError(f"{source}: modifier '{roll}.{mid}': {_where(exc)}") from None
    return out, difficulty


def read_tables(sheet: Path = SHEET_FILE, modifiers: Path = MODIFIERS_FILE) -> Tables:
    """Read and validate both files."""
    s = parse_sheet(_read_toml(sheet), str(sheet))
    mods, difficulty = parse_modifiers(_read_toml(modifiers), str(modifiers))
    return Tables(s, mods, difficulty)


@lru_cache(maxsize=1)
def load_tables() -> Tables:
    """The shipped tables (read once, on the first call)."""
    return read_tables()
