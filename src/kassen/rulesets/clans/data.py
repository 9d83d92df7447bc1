"""The clan card game's card table: Strengths, texts and Battlefield values.

The rulebook (seed 002) lost the card Strengths, the Brute's ability and part of the
Village's text; ``data/default.toml`` ships the defaults of ``shared/rules/facts.md``.
A table is validated with pydantic and loaded explicitly by :func:`load_table`
(the default one cached), never at import time. A malformed table raises
``FormatError`` naming the file and the field.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kassen.engine.errors import FormatError

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_TABLE = DATA_DIR / "default.toml"

#: the four clans, in the rulebook's order, with their colours
CLANS: tuple[str, ...] = ("Kamiwashi", "Hondo", "Yasei", "Jozu")
CLAN_COLOURS: tuple[str, ...] = ("white", "red", "green", "blue")

Kind = Literal["regular", "secret"]

#: card slug -> (name, kind, copies per clan): fixed by the rulebook's card list (002:280-431)
CARD_TYPES: dict[str, tuple[str, Kind, int]] = {
    "lord": ("Lord", "secret", 1),
    "archer": ("Archer", "secret", 1),
    "samurai": ("Samurai", "secret", 1),
    "peasant": ("Peasant", "secret", 4),
    "brute": ("Brute", "secret", 1),
    "scout": ("Scout", "regular", 1),
    "shugenja": ("Shugenja", "regular", 1),
    "general": ("General", "regular", 1),
    "assassin": ("Assassin", "regular", 1),
    "ashigaru": ("Ashigaru", "regular", 1),
}

#: tile slug -> (name, timing of its effect): fixed by the rulebook (002:436-535)
TILES: dict[str, tuple[str, str]] = {
    "bridge": ("Bridge", "deployment"),
    "sanctuary": ("Sanctuary", "before combat"),
    "port": ("Port", "during combat"),
    "rice-field": ("Rice Field", "during combat"),
    "village": ("Village", "during combat"),
    "palace": ("Palace", "during combat"),
    "golden-temple": ("Golden Temple", "during combat"),
    "fortress": ("Fortress", "during combat"),
    "supply-camp": ("Supply Camp", "after combat"),
    "torii": ("Torii", "after combat"),
}


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CardValues(_Model):
    strength: int = Field(ge=0, le=20)
    text: str = ""
    default: bool = False


class TileValues(_Model):
    vp: Literal[4, 6]
    text: str = ""
    default: bool = False


class LordRule(_Model):
    per_card_after: int = Field(default=1, ge=0, le=5)


class VillageRule(_Model):
    from_strength: int = Field(default=1, ge=0, le=20)
    to_strength: int = Field(default=2, ge=0, le=20)
    default: bool = False


class RiceFieldRule(_Model):
    peasant_strength: int = Field(default=1, ge=0, le=20)


class CardTable(_Model):
    """One card table: the values the rules need, each marked when it is a default."""

    name: str = ""
    lord: LordRule = LordRule()
    village: VillageRule = VillageRule()
    rice_field: RiceFieldRule = RiceFieldRule()
    cards: dict[str, CardValues]
    battlefields: dict[str, TileValues]
    #: where the table was read from (set by the loader)
    source: str = ""

    def strength(self, slug: str) -> int:
        return self.cards[slug].strength

    def vp(self, tile: str) -> int:
        return self.battlefields[tile].vp


def parse_table(data: dict[str, Any], source: str) -> CardTable:
    """Validate a table read from ``source``; ``FormatError`` names the file and field."""
    try:
        table = CardTable.model_validate({**data, "source": source})
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise FormatError(f"{source}: field {where!r}: {err['msg']}") from None
    for name, known, got in (("cards", CARD_TYPES, table.cards), ("battlefields", TILES, table.battlefields)):
        missing = sorted(set(known) - set(got))
        extra = sorted(set(got) - set(known))
        if missing:
            raise FormatError(f"{source}: field {name!r}: missing {', '.join(missing)}")
        if extra:
            raise FormatError(f"{source}: field {name!r}: unknown {', '.join(extra)}")
    fours = sum(1 for t in table.battlefields.values() if t.vp == 4)
    if fours != 5:
        raise FormatError(f"{source}: field 'battlefields': 5 tiles must be worth 4 VP and 5 worth 6 (got {fours} of 4)")
    return table


def read_table(path: Path) -> CardTable:
    """Read and validate the card table at ``path``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FormatError(f"{path}: cannot read the card table: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{path}: not valid TOML: {exc}") from None
    return parse_table(data, str(path))


@lru_cache(maxsize=8)
def _cached(path: str) -> CardTable:
    return read_table(Path(path))


def load_table(path: str | Path | None = None) -> CardTable:
    """The card table at ``path`` (``None``: the shipped default table)."""
    if path is None:
        return _cached(str(DEFAULT_TABLE))
    return _cached(str(Path(path)))
