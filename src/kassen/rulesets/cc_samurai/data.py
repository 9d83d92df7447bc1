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

# re-exported: the rules import the types from here
from kassen.rulesets.cc_samurai.facts import Symbol as Symbol
from kassen.rulesets.cc_samurai.facts import Tables as Tables
from kassen.rulesets.cc_samurai.facts import TerrainType as TerrainType
from kassen.rulesets.cc_samurai.facts import UnitType as UnitType

DATA_DIR = Path(__file__).parent / "data"


class UnitTypeModel(BaseModel):
    """units.toml's entry, validated; the rules read it as a :class:`facts.UnitType`."""

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
    #: collects Honor & Fortune in close combat against triangle and circle units (GMT cavalry: no)
    close_honor_vs_lower: bool = True
    notes: str = ""


class TerrainTypeModel(BaseModel):
    """terrain.toml's entry, validated; the rules read it as a :class:`facts.TerrainType`."""

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


class EditionRules(BaseModel):
    """The rules that differ between editions of the system (GMT: the defaults).

    The Zvezda edition (``data/zvezda.toml``) changes these flags and the tables;
    the state machine asks the flags at the few places the editions part ways.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: Lack of Honor: 4 dice, plus one per token short (GMT) or a flat 4 (Zvezda)
    loh_dice_per_token_short: bool = True
    #: who throws the Lack of Honor dice (narration only): "owner" (GMT) or "opponent" (Zvezda)
    loh_roller: Literal["owner", "opponent"] = "owner"
    #: units (not only Leaders) may retreat onto the half-hexes of the side edges
    retreat_onto_half_hexes: bool = True
    #: a bow (no sword hits at range) still kills a lone Leader with a sword at range
    bow_hits_lone_leader: bool = True
    #: a lone Leader may retreat off his own baseline to save his standard
    leader_retreats_off_baseline: bool = False
    #: a command tent left empty is removed at once (Zvezda); else it is taken by occupying it
    tent_removed_when_empty: bool = False


class Edition(BaseModel):
    """An edition's overlay on the GMT tables (``data/<edition>.toml``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    rules: EditionRules = Field(default_factory=EditionRules)
    #: the edition's unit roster: code -> GMT fields, or ``base = "GMT code"`` plus changes
    units: dict[str, dict[str, Any]]
    #: terrain changes: slug -> fields replaced
    terrain: dict[str, dict[str, Any]] = Field(default_factory=dict)
    #: copies per Command card slug where they differ from GMT (0: not in the deck)
    command_copies: dict[str, int] = Field(default_factory=dict)
    #: copies per Dragon card slug where they differ from GMT
    dragon_copies: dict[str, int] = Field(default_factory=dict)
    command_total: int = 60
    dragon_total: int = 40
    section_total: int | None = None
    tactic_total: int | None = None


EDITIONS = ("gmt", "zvezda")


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


@lru_cache(maxsize=4)
def load_tables(edition: str = "gmt") -> Tables:
    """Load and validate every table of ``edition`` ("gmt" or "zvezda"), once."""
    if edition not in EDITIONS:
        raise FormatError(f"unknown edition {edition!r}; known: {', '.join(EDITIONS)}")
    raw_units = _read("units.toml")
    units = {
        code: UnitType(_validated(UnitTypeModel, {**raw, "code": code}, f"units.toml [{code}]"))
        for code, raw in raw_units.items()
    }
    terrain: dict[str, TerrainTypeModel] = {
        slug: _validated(TerrainTypeModel, {**raw, "slug": slug}, f"terrain.toml [{slug}]")
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
    if edition == "gmt":
        _check_decks(command, dragon, "command_cards.toml", 60, 40, None, None)
        return Tables(units, _native(terrain), command, dragon, "gmt", EditionRules())
    ed: Edition = _validated(Edition, _read(f"{edition}.toml"), f"{edition}.toml")
    where = f"{edition}.toml"
    zunits: dict[str, UnitType] = {}
    for code, raw in ed.units.items():
        fields = dict(raw)
        base = fields.pop("base", None)
        if base is not None:
            if base not in raw_units:
                raise FormatError(f"{where}: field units.{code}.base: unknown GMT unit {base!r}")
            fields = {**raw_units[base], **fields}
        zunits[code] = UnitType(_validated(UnitTypeModel, {**fields, "code": code}, f"{where} [units.{code}]"))
    for slug, change in ed.terrain.items():
        if slug not in terrain:
            raise FormatError(f"{where}: field terrain.{slug}: unknown terrain {slug!r}")
        terrain[slug] = _validated(TerrainTypeModel, {**terrain[slug].model_dump(), **change},
                                   f"{where} [terrain.{slug}]")
    for field, table, known in (("command_copies", ed.command_copies, {c.slug for c in command}),
                                ("dragon_copies", ed.dragon_copies, {d.slug for d in dragon})):
        for slug in table:
            if slug not in known:
                raise FormatError(f"{where}: field {field}.{slug}: unknown card {slug!r}")
    command = [c.model_copy(update={"copies": ed.command_copies.get(c.slug, c.copies)}) for c in command]
    dragon = [d.model_copy(update={"copies": ed.dragon_copies.get(d.slug, d.copies)}) for d in dragon]
    command = [c for c in command if c.copies > 0]
    dragon = [d for d in dragon if d.copies > 0]
    _check_decks(command, dragon, where, ed.command_total, ed.dragon_total, ed.section_total, ed.tactic_total)
    return Tables(zunits, _native(terrain), command, dragon, edition, ed.rules)


def _native(terrain: dict[str, TerrainTypeModel]) -> dict[str, TerrainType]:
    """The validated terrain entries as the rules read them."""
    return {slug: TerrainType(m) for slug, m in terrain.items()}


def _check_decks(command: list[CommandCard], dragon: list[DragonCard], where: str, n_cmd: int, n_dragon: int,
                 n_section: int | None, n_tactic: int | None) -> None:
    if sum(c.copies for c in command) != n_cmd:
        raise FormatError(f"{where}: the Command deck must hold {n_cmd} cards")
    if sum(d.copies for d in dragon) != n_dragon:
        raise FormatError(f"{where}: the Dragon deck must hold {n_dragon} cards")
    for kind, n in (("section", n_section), ("tactic", n_tactic)):
        if n is not None and sum(c.copies for c in command if c.kind == kind) != n:
            raise FormatError(f"{where}: the Command deck must hold {n} {kind.title()} cards")
