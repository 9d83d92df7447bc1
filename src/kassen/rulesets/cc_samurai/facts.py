"""Unit and terrain types, and the tables holding them, as the rules read them: plain typed
classes, compiled with the rules (issue 15), so a read of ``ut.cavalry``, ``ter.stop`` or
``self.t.units`` is a native attribute read instead of a pydantic model's (or a Python
object's) attribute look-up and an interpreted property.

The tables are validated by the pydantic models of :mod:`data` (``UnitTypeModel``,
``TerrainTypeModel``) and converted once, by :func:`data.load_tables`. ``model_dump``
gives the validated model's dump (``kassen rules --json``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # data.py imports this module: its pydantic types are for the checker only
    from kassen.rulesets.cc_samurai.data import CommandCard, DragonCard, EditionRules

Symbol = Literal["circle", "triangle", "square", "swords"]


class UnitType:
    """A unit type (units.toml, or an edition's table): dice, movement, special rules."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.code: str = model.code
        self.name: str = model.name
        self.symbol: Symbol = model.symbol
        self.cls: Literal["infantry", "cavalry"] = model.cls
        self.blocks: int = model.blocks
        self.move: int = model.move
        self.battle_move: int = model.battle_move
        self.close: int = model.close
        self.ranged: dict[int, int] = dict(model.ranged)
        self.ranged_moved: int | None = model.ranged_moved
        self.collects_ranged_honor: bool = model.collects_ranged_honor
        self.ranged_sword_hits: bool = model.ranged_sword_hits
        self.retreat_honor: int = model.retreat_honor
        self.retreat_honor_flat: int = model.retreat_honor_flat
        self.hexes_per_flag: int = model.hexes_per_flag
        self.ignores_flag: int = model.ignores_flag
        self.levy: bool = model.levy
        self.bodyguard: bool = model.bodyguard
        self.dice_per_block: bool = model.dice_per_block
        self.close_honor_vs_lower: bool = model.close_honor_vs_lower
        self.notes: str = model.notes
        #: derived once: ``cls == "cavalry"``, the longest ranged distance (0: none)
        self.cavalry: bool = self.cls == "cavalry"
        self.max_range: int = max(self.ranged) if self.ranged else 0

    def model_dump(self, **kwargs: Any) -> Any:
        """The validated table entry, dumped by pydantic (``kwargs`` as ``BaseModel.model_dump``)."""
        return self.model.model_dump(**kwargs)

    def __repr__(self) -> str:
        return f"UnitType({self.code!r})"


class TerrainType:
    """A terrain type (terrain.toml, or an edition's change): movement, battle and sight."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.slug: str = model.slug
        self.name: str = model.name
        self.stop: bool = model.stop
        self.impassable: bool = model.impassable
        self.no_battle_on_entry: Literal["", "all", "cavalry"] = model.no_battle_on_entry
        self.blocks_los: bool = model.blocks_los
        self.hill: bool = model.hill
        self.castle: bool = model.castle
        self.no_inspiration: bool = model.no_inspiration
        self.ignore_flag_inf: Literal["", "any", "cavalry"] = model.ignore_flag_inf
        self.ignore_flag_any: bool = model.ignore_flag_any
        self.on_close_inf: int | None = model.on_close_inf
        self.on_close_cav: int | None = model.on_close_cav
        self.on_ranged_inf: int | None = model.on_ranged_inf
        self.on_ranged_cav: int | None = model.on_ranged_cav
        self.into_close_inf: int | None = model.into_close_inf
        self.into_close_cav: int | None = model.into_close_cav
        self.into_ranged: int | None = model.into_ranged
        self.into_ranged_cav: int | None = model.into_ranged_cav

    def cap_on(self, kind: str, cavalry: bool) -> int | None:
        """Dice maximum for a unit on this hex battling (``kind`` close|ranged)."""
        if kind == "close":
            return self.on_close_cav if cavalry else self.on_close_inf
        return self.on_ranged_cav if cavalry else self.on_ranged_inf

    def cap_into(self, kind: str, cavalry: bool) -> int | None:
        """Dice maximum for a unit attacking an enemy on this hex."""
        if kind == "close":
            return self.into_close_cav if cavalry else self.into_close_inf
        if cavalry and self.into_ranged_cav is not None:
            return self.into_ranged_cav
        return self.into_ranged

    def forbids_battle_on_entry(self, cavalry: bool) -> bool:
        return self.no_battle_on_entry == "all" or (self.no_battle_on_entry == "cavalry" and cavalry)

    def model_dump(self, **kwargs: Any) -> Any:
        """The validated table entry, dumped by pydantic (``kwargs`` as ``BaseModel.model_dump``)."""
        return self.model.model_dump(**kwargs)

    def __repr__(self) -> str:
        return f"TerrainType({self.slug!r})"


class Tables:
    """All data tables, with the physical decks as lists of card-instance ids (built by
    :func:`data.load_tables`; compiled, so ``self.t.units`` in the rules is a native read)."""

    def __init__(self, units: dict[str, UnitType], terrain: dict[str, TerrainType], command: list[CommandCard],
                 dragon: list[DragonCard], edition: str, rules: EditionRules) -> None:
        #: "gmt" or "zvezda"
        self.edition = edition
        self.rules = rules
        #: ``rules.tent_removed_when_empty``, read before every automatic step
        self.tent_removed_when_empty: bool = rules.tent_removed_when_empty
        self.units = units
        self.terrain = terrain
        self.command: dict[str, CommandCard] = {c.slug: c for c in command}
        #: whether the deck holds First Strike, so that an enemy close combat may be answered (R32)
        self.has_first_strike: bool = "first-strike" in self.command
        self.dragon: dict[str, DragonCard] = {c.slug: c for c in dragon}
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
