"""Data tables of C&C Samurai Battles: units, terrain, Command and Dragon cards.

The tables are TOML files beside this module, validated with pydantic and
loaded explicitly by :func:`load_tables` (cached after the first call), never at
import time.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kassen.engine.errors import FormatError

DATA_DIR = Path(__file__).parent / "data"

Symbol = Literal["circle", "triangle", "square", "swords"]


class UnitType(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    code: str = ""
    name: str
    symbol: Symbol
    cls: Literal["infantry", "cavalry"] = Field(alias="class")
    blocks: int
    move: int
    battle_move: int
    close: int
    ranged: dict[int, int] = Field(default_factory=dict)
    ranged_moved: int | None = None
    collects_ranged_honor: bool = False
    ranged_sword_hits: bool = False
    retreat_honor: int = 0
    retreat_honor_flat: int = 0
    hexes_per_flag: int = 1
    ignores_flag: int = 0
    levy: bool = False
    bodyguard: bool = False
    dice_per_block: bool = False
    notes: str = ""

    @property
    def cavalry(self) -> bool:
        return self.cls == "cavalry"

    @property
    def max_range(self) -> int:
        return max(self.ranged) if self.ranged else 0


class TerrainType(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    slug: str = ""
    name: str
    stop: bool = False
    impassable: bool = False
    no_battle_on_entry: Literal["", "all", "cavalry"] = ""
    blocks_los: bool = False
    hill: bool = False
    castle: bool = False
    no_inspiration: bool = False
    ignore_flag_inf: Literal["", "any", "cavalry"] = ""
    ignore_flag_any: bool = False
    on_close_inf: int | None = None
    on_close_cav: int | None = None
    on_ranged_inf: int | None = None
    on_ranged_cav: int | None = None
    into_close_inf: int | None = None
    into_close_cav: int | None = None
    into_ranged: int | None = None
    into_ranged_cav: int | None = None

    def cap_on(self, kind: str, cavalry: bool) -> int | None:
        """Dice maximum for a unit on this hex battling (``kind`` close|ranged)."""
        value: int | None = getattr(self, f"on_{kind}_{'cav' if cavalry else 'inf'}")
        return value

    def cap_into(self, kind: str, cavalry: bool) -> int | None:
        """Dice maximum for a unit attacking an enemy on this hex."""
        if kind == "close":
            value: int | None = getattr(self, f"into_close_{'cav' if cavalry else 'inf'}")
            return value
        if cavalry and self.into_ranged_cav is not None:
            return self.into_ranged_cav
        return self.into_ranged

    def forbids_battle_on_entry(self, cavalry: bool) -> bool:
        return self.no_battle_on_entry == "all" or (self.no_battle_on_entry == "cavalry" and cavalry)


class OrderSlot(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    section: Literal["left", "center", "right"]
    count: int | Literal["command"]


class CommandCard(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    slug: str
    name: str
    kind: Literal["section", "tactic"]
    copies: int
    helmet: bool = False
    orders: list[OrderSlot] = Field(default_factory=list)
    draw_two: bool = False
    symbol: Symbol | None = None
    text: str


class DragonCard(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    slug: str
    name: str
    seed_name: str | None = None
    cost: int
    copies: int
    window: str
    target: str
    effect: str
    confidence: Literal["A", "B", "C"]


class Tables:
    """All data tables, with the physical decks as lists of card-instance ids."""

    def __init__(
        self,
        units: dict[str, UnitType],
        terrain: dict[str, TerrainType],
        command: list[CommandCard],
        dragon: list[DragonCard],
    ) -> None:
        self.units = units
        self.terrain = terrain
        self.command = {c.slug: c for c in command}
        self.dragon = {c.slug: c for c in dragon}
        #: card-instance id -> slug, e.g. "C#07" -> "order-two-center" (the # keeps ids apart from hex names)
        self.command_ids: dict[str, str] = {}
        n = 0
        for c in command:
            for _ in range(c.copies):
                n += 1
                self.command_ids[f"C#{n:02d}"] = c.slug
        self.dragon_ids: dict[str, str] = {}
        n = 0
        for d in dragon:
            for _ in range(d.copies):
                n += 1
                self.dragon_ids[f"D#{n:02d}"] = d.slug


def _read(name: str) -> dict[str, Any]:
    path = DATA_DIR / name
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise FormatError(f"{path}: {exc}") from exc


def _validated(model: type[BaseModel], data: Any, where: str) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise FormatError(f"{where}: {exc}") from exc


@lru_cache(maxsize=1)
def load_tables() -> Tables:
    """Load and validate every table (once)."""
    units = {
        code: _validated(UnitType, {**raw, "code": code}, f"units.toml [{code}]")
        for code, raw in _read("units.toml").items()
    }
    terrain = {
        slug: _validated(TerrainType, {**raw, "slug": slug}, f"terrain.toml [{slug}]")
        for slug, raw in _read("terrain.toml").items()
    }
    command = [
        _validated(CommandCard, raw, f"command_cards.toml card {i + 1}")
        for i, raw in enumerate(_read("command_cards.toml")["card"])
    ]
    dragon = [
        _validated(DragonCard, raw, f"dragon_cards.toml card {i + 1}")
        for i, raw in enumerate(_read("dragon_cards.toml")["card"])
    ]
    if sum(c.copies for c in command) != 60:
        raise FormatError("command_cards.toml: the Command deck must hold 60 cards")
    if sum(c.copies for c in dragon) != 40:
        raise FormatError("dragon_cards.toml: the Dragon deck must hold 40 cards")
    return Tables(units, terrain, command, dragon)
