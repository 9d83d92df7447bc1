"""Kensei rosters: an army as a TOML file, validated with pydantic (docs/formats.md (Kensei)).

::

    name = "Buke vanguard"
    clan = "buke"              # kuge, buke, sohei, otokodate, kuroi-te, hattori
    commander = "taisho"       # hattamoto, taisho, daimyo
    points = 400               # the army's size in points (sets the command cards)
    ability = "bushido-law"    # optional: the clan ability chosen for this game (K9)

    [[troops]]
    id = "yari"                # optional: a short id (default: from the name)
    name = "Yari samurai"
    class = "W"                # H E W P O K C M I
    title = "samurai"
    miniatures = 10            # the whole unit, leader and banner bearer included (K6)
    weapons = ["Yari"]         # at most one hand-to-hand and one ranged weapon
    armour = "samurai"         # samurai | none; mounted troops wear cavalry armour (003:214)
    mounted = false
    skirmishers = false
    leader = "E"               # the unit leader's class, or leave it out
    banner = true              # a Hata-Jurushi

A malformed roster raises :class:`~kassen.engine.errors.FormatError` naming the file,
the troop and the field.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from kassen.engine.errors import FormatError
from kassen.rulesets.kensei.data import Tables, load_tables, slug

ROSTER_DIR = Path(__file__).parent / "rosters"
#: the most troops a roster may list (K46)
MAX_TROOPS = 60


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class Troop(_Model):
    """One troop: a unit of miniatures, or a single miniature (``miniatures = 1``)."""

    id: str = ""
    name: str = Field(min_length=1)
    klass: str = Field(alias="class")
    title: str
    miniatures: int = Field(ge=1, le=60, strict=True)
    weapons: tuple[str, ...] = ()
    armour: Literal["samurai", "cavalry", "none"] = "none"
    mounted: bool = Field(default=False, strict=True)
    skirmishers: bool = Field(default=False, strict=True)
    leader: str | None = None
    banner: bool = Field(default=False, strict=True)
    #: a war machine served by this troop, its crew (K49): the machine's name, e.g. "taiho"
    machine: str | None = None
    engineer: bool = Field(default=False, strict=True)   # an engineer leads the crew (003:294)
    ammunition: tuple[str, ...] = ()                     # what it may load (default: every kind)

    @model_validator(mode="after")
    def _fill(self) -> Troop:
        if not self.id:
            object.__setattr__(self, "id", slug(self.name))
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", self.id):
            raise ValueError(f"id {self.id!r} must be lower-case letters, digits and '-'")
        return self


class Roster(_Model):
    name: str = Field(min_length=1)
    clan: str
    commander: Literal["hattamoto", "taisho", "daimyo"]
    points: int = Field(ge=1, le=5000, strict=True)
    ability: str | None = None
    #: an army has 30-60 miniatures (kensei.md §6), so never more than 60 troops (K46)
    troops: tuple[Troop, ...] = Field(min_length=1, max_length=MAX_TROOPS)
    #: where it was read from (set by the loader)
    source: str = ""


class TroopProfile:
    """A troop with its tables resolved: class, leader class, weapons, armour."""

    def __init__(self, troop: Troop, tables: Tables) -> None:
        s = tables.sheet
        self.troop = troop
        self.id = troop.id
        self.name = troop.name
        self.cls = s.classes[troop.klass]
        self.title = s.titles[troop.title]
        self.leader = s.classes[troop.leader] if troop.leader else None
        self.melee_type: int | None = None
        self.melee_weapon: str | None = None
        self.ranged: Any = None
        for w in troop.weapons:
            t = tables.melee_weapon_type(w)
            if t is not None:
                self.melee_type, self.melee_weapon = t, w
            else:
                self.ranged = tables.ranged_weapon(w)
        self.mounted = troop.mounted
        armour = "cavalry" if troop.mounted else (self.cls.armour or (None if troop.armour == "none" else troop.armour))
        self.armour = s.armour[armour] if armour else None
        self.miniatures = troop.miniatures
        self.wo = self.cls.wo
        self.leader_wo = self.leader.wo if self.leader else 0
        #: the war machine the troop serves (K49), or None
        self.machine = s.war_machines[troop.machine] if troop.machine else None
        self.machine_id = troop.machine
        self.engineer = troop.engineer
        self.ammunition: tuple[str, ...] = (troop.ammunition or tuple(s.ammunition)) if troop.machine else ()

    @property
    def single(self) -> bool:
        return self.miniatures == 1

    @property
    def rank_and_file(self) -> int:
        """Miniatures that are not the unit leader."""
        return self.miniatures - (1 if self.leader else 0)


def parse_roster(data: dict[str, Any], source: str, tables: Tables | None = None) -> Roster:
    """Validate a roster read from ``source`` against the tables; ``FormatError`` says what is wrong."""
    t = tables or load_tables()
    try:
        roster = Roster.model_validate({**data, "source": source})
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = list(err["loc"])
        where = ".".join(str(p) for p in loc)
        if len(loc) >= 2 and loc[0] == "troops" and isinstance(loc[1], int):
            troops = data.get("troops") or []
            name = troops[loc[1]].get("name") if loc[1] < len(troops) and isinstance(troops[loc[1]], dict) else None
            if name:
                where += f" (troop {name!r})"
        raise FormatError(f"{source}: field {where!r}: {err['msg']}") from None
    s = t.sheet
    if roster.clan not in s.clans:
        raise FormatError(f"{source}: field 'clan': unknown clan {roster.clan!r}; known: {', '.join(s.clans)}")
    if roster.ability is not None:
        ids = [a.id for a in s.clans[roster.clan].abilities]
        if roster.ability not in ids:
            raise FormatError(f"{source}: field 'ability': {roster.ability!r} is not a {s.clans[roster.clan].name} "
                              f"ability; choose one of {', '.join(ids)}")
    seen: set[str] = set()
    for i, tr in enumerate(roster.troops):
        where = f"{source}: troops[{i}] ({tr.name!r})"
        if tr.id in seen:
            raise FormatError(f"{where}: field 'id': {tr.id!r} is used by another troop; give each troop its own id")
        seen.add(tr.id)
        if tr.klass not in s.classes:
            raise FormatError(f"{where}: field 'class': unknown class {tr.klass!r}; known: {', '.join(s.classes)}")
        if tr.title not in s.titles:
            raise FormatError(f"{where}: field 'title': unknown title {tr.title!r}; known: {', '.join(s.titles)}")
        if tr.leader is not None:
            if tr.leader not in s.classes:
                raise FormatError(f"{where}: field 'leader': unknown class {tr.leader!r}; known: {', '.join(s.classes)}")
            if tr.miniatures < 2:
                raise FormatError(f"{where}: field 'leader': a unit leader needs a unit of at least 2 miniatures "
                                  f"(a single miniature is its own troop)")
        if tr.banner and tr.miniatures < 2:
            raise FormatError(f"{where}: field 'banner': a Hata-Jurushi needs a unit of at least 2 miniatures")
        melee = [w for w in tr.weapons if t.melee_weapon_type(w) is not None]
        ranged = [w for w in tr.weapons if t.ranged_weapon(w) is not None]
        unknown = [w for w in tr.weapons if w not in melee and w not in ranged]
        if unknown:
            raise FormatError(f"{where}: field 'weapons': unknown weapon {unknown[0]!r}; hand-to-hand: "
                              f"{', '.join(t.melee_weapon_names())}; ranged: {', '.join(s.ranged_weapons)}")
        if len(melee) > 1 or len(ranged) > 1:
            raise FormatError(f"{where}: field 'weapons': at most one hand-to-hand and one ranged weapon "
                              f"(got {', '.join(tr.weapons)})")
        if tr.mounted and tr.armour == "samurai":
            raise FormatError(f"{where}: field 'armour': a mounted troop wears cavalry armour (003:214); "
                              f"leave 'armour' out or write \"cavalry\"")
        if tr.armour == "cavalry" and not tr.mounted:
            raise FormatError(f"{where}: field 'armour': cavalry armour is for mounted troops; set mounted = true")
        _check_machine(t, tr, where)
        cls = s.classes[tr.klass]
        if cls.creature and tr.armour != "none":
            raise FormatError(f"{where}: field 'armour': creatures wear no armour (their class gives their "
                              f"protection, 003:215-216)")
    return roster


#: a war machine's crew: 2 by default and up to 2 more (kensei.md §8, fan; K49)
MAX_CREW = 4


def _check_machine(t: Tables, tr: Troop, where: str) -> None:
    """A war machine troop (K49): a known machine, its crew, ammunition it may load."""
    s = t.sheet
    if tr.machine is None:
        if tr.engineer or tr.ammunition:
            field = "engineer" if tr.engineer else "ammunition"
            raise FormatError(f"{where}: field {field!r}: only a war machine troop (machine = \"...\") has one")
        return
    if tr.machine not in s.war_machines:
        raise FormatError(f"{where}: field 'machine': unknown war machine {tr.machine!r}; known: "
                          f"{', '.join(s.war_machines)}")
    if tr.miniatures > MAX_CREW:
        raise FormatError(f"{where}: field 'miniatures': a war machine's crew is 1 to {MAX_CREW} miniatures "
                          f"(2, and up to 2 more; K49), got {tr.miniatures}")
    for field in ("leader", "banner", "mounted", "skirmishers"):
        if getattr(tr, field):
            raise FormatError(f"{where}: field {field!r}: a war machine's crew has no unit leader, banner, mount or "
                              f"skirmish order (K49)")
    for a in tr.ammunition:
        if a not in s.ammunition:
            raise FormatError(f"{where}: field 'ammunition': unknown ammunition {a!r}; known: "
                              f"{', '.join(s.ammunition)}")


def read_roster(path: str | Path, tables: Tables | None = None) -> Roster:
    """Read and validate the roster at ``path`` (a file, or the name of a shipped roster)."""
    p = Path(path)
    if not p.exists() and (ROSTER_DIR / f"{path}.toml").exists():
        p = ROSTER_DIR / f"{path}.toml"
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        known = ", ".join(shipped_rosters())
        raise FormatError(f"{path}: cannot read the roster: {exc.strerror or exc} (shipped rosters: {known})") from None
    except UnicodeDecodeError as exc:
        raise FormatError(f"{p}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start}); "
                          f"save the file as UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{p}: not valid TOML: {exc}") from None
    return parse_roster(data, str(p), tables)


def shipped_rosters() -> list[str]:
    """Names of the rosters shipped in the package."""
    return sorted(p.stem for p in ROSTER_DIR.glob("*.toml"))


def profiles(roster: Roster, tables: Tables | None = None) -> list[TroopProfile]:
    t = tables or load_tables()
    return [TroopProfile(tr, t) for tr in roster.troops]
