"""An Honourable Victory!: the game, setting up a battle from its files, and states from JSON."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from kassen.engine.errors import FormatError
from kassen.engine.protocol import Game
from kassen.engine.rng import Rng
from kassen.rulesets.honourable_victory.data import (
    Battle,
    Clan,
    Options,
    Tables,
    _where,
    builtin_battles,
    load_battle,
    load_clans,
    load_tables,
    validate_clan,
)
from kassen.rulesets.honourable_victory.state import SIDES, HVState, Unit
from kassen.rulesets.honourable_victory.table import FEATURES, FORWARD, Table, parse_zone, zone_name

DEFAULT_BATTLE = "meeting-engagement"


class HonourableVictoryGame(Game):
    """An Honourable Victory! (Trevor Raymond, 2015): zone-based Sengoku miniatures rules."""

    id = "honourable-victory"
    name = "An Honourable Victory!"
    rules_version = "1"
    seats = SIDES

    def __init__(self) -> None:
        self.tables: Tables = load_tables()

    def scenarios(self) -> list[str]:
        ids = builtin_battles()
        ids.sort(key=lambda s: (s != DEFAULT_BATTLE, s))
        return ids

    def default_scenario(self) -> str:
        return DEFAULT_BATTLE

    def scenario_summary(self, sid: str) -> dict[str, Any]:
        """Name and sides of a battle, for ``kassen scenarios``."""
        b, _ = load_battle(sid)
        clans = load_clans()
        names = [clans[c].name if c in clans else c for c in (b.south.clan, b.north.clan)]
        return {"name": b.battle.name, "sides": [f"{names[0]} (South)", f"{names[1]} (North)"], "note": b.battle.note}

    #: setting up throws dice (turn 1's initiative): ``new_state`` takes ``forced_dice`` for them
    dice_at_setup = True

    def new_state(self, scenario: str | None = None, seed: int = 0, *, forced_dice: list[int] | None = None,
                  **options: Any) -> HVState:
        """The battle ``scenario`` set up with ``seed``; ``forced_dice`` (1..6) are thrown first,
        from turn 1's initiative on, then the state's own generator."""
        battle, where = load_battle(scenario or DEFAULT_BATTLE)
        clans = {**load_clans(), **{c.id: c for c in battle.clan}}
        return self.setup(battle, clans, seed, where, forced_dice=forced_dice, **options)

    def setup(self, battle: Battle, clans: dict[str, Clan], seed: int, where: str = "battle",
              forced_dice: list[int] | None = None, **options: Any) -> HVState:
        """Setting Up: the table, the armies in their set-up zones, then the first turn."""
        try:
            opts = Options.model_validate({**battle.options.model_dump(), **options})
        except ValidationError as exc:
            raise FormatError(f"{where}: option {_where(exc)}") from None
        shift = (opts.width - battle.options.width) // 2

        def zone(text: str, field: str) -> str:
            p = parse_zone(text)
            if p is None:
                raise FormatError(f"{where}: {field}: {text!r} is not a zone name (e.g. C2)")
            return zone_name(p[0] + shift, p[1])

        terrain: dict[str, list[str]] = {}
        ts = battle.terrain
        if opts.terrain:
            for feat in FEATURES:
                for z in getattr(ts, feat):
                    terrain.setdefault(zone(z, f"terrain.{feat}"), []).append(feat)
        esc = [frozenset((zone(a, "terrain.escarpments"), zone(b, "terrain.escarpments")))
               for a, b in (ts.escarpments if opts.terrain else [])]
        table = Table(opts.width, opts.limit, opts.reserves, {z: tuple(f) for z, f in terrain.items()},
                      frozenset(esc))
        for z in terrain:
            if not table.on_table(z):
                raise FormatError(f"{where}: terrain: {z} is not a zone on the table")
        edges: dict[str, int] = {}
        for e in esc:
            a, b = sorted(e)
            pa, pb = parse_zone(a), parse_zone(b)
            assert pa is not None and pb is not None
            if not (table.on_table(a) and table.on_table(b)) or abs(pa[0] - pb[0]) + abs(pa[1] - pb[1]) != 1:
                raise FormatError(f"{where}: terrain.escarpments: {a}-{b} is not an edge between two zones")
            for z in (a, b):
                edges[z] = edges.get(z, 0) + 1
                if edges[z] > 3:
                    raise FormatError(f"{where}: terrain.escarpments: at most three edges of {z} (Appendix A)")
        kept = opts.model_dump()
        if kept["concede"]:  # the rule's default is left out: saves and digests stay those of before the option
            del kept["concede"]
        s = HVState(self, self.tables, table, kept)
        s.rng = Rng(seed)
        s.battle_id, s.battle_name = battle.battle.id, battle.battle.name
        for seat in (0, 1):
            self._deploy(s, battle, clans, seat, opts, zone, where)
        if forced_dice:
            s.forced = s.with_forced_dice(forced_dice).forced  # checked 1..6 there
        if battle.position is not None:
            from kassen.rulesets.honourable_victory.position import apply_position

            apply_position(s, battle.position, where, zone)
        else:
            s.begin()
        s.events, s._ev = tuple(s._ev), []
        return s

    def _deploy(self, s: HVState, battle: Battle, clans: dict[str, Clan], seat: int, opts: Options,
                zone: Any, where: str) -> None:
        side = battle.side(seat)
        key = "south" if seat == 0 else "north"
        if side.clan not in clans:
            raise FormatError(f"{where}: {key}.clan: no army list {side.clan!r} (known: {', '.join(clans)})")
        clan = clans[side.clan]
        validate_clan(clan, self.tables, opts, where)
        s.clans[seat], s.daimyo_names[seat] = clan.name, clan.daimyo
        table = s.table
        dz = zone(side.daimyo, f"{key}.daimyo")
        if dz not in table.setup_zones(seat):
            raise FormatError(f"{where}: {key}.daimyo: the Daimyo sets up in one of "
                              f"{', '.join(table.setup_zones(seat))} (ruling H4)")
        s.daimyo[seat] = dz
        placed: dict[str, int] = {}
        by_name = {u.name: u for u in clan.units}
        seen: set[str] = set()
        letter = "SN"[seat]
        for i, d in enumerate(side.deploy):
            field = f"{key}.deploy[{i}]"
            if d.unit not in by_name:
                raise FormatError(f"{where}: {field}.unit: clan {clan.id!r} has no unit {d.unit!r}")
            if d.unit in seen:
                raise FormatError(f"{where}: {field}.unit: {d.unit!r} is deployed twice")
            seen.add(d.unit)
            entry = by_name[d.unit]
            z = zone(d.zone, f"{field}.zone")
            on_table = z in table.rear_zones(seat)
            if not on_table and z not in table.reserve_zones(seat):
                raise FormatError(f"{where}: {field}.zone: {z} is neither a rear zone nor a reserve zone of "
                                  f"{SIDES[seat]}")
            placed[z] = placed.get(z, 0) + 1
            if placed[z] > table.limit:
                raise FormatError(f"{where}: {field}.zone: more than {table.limit} units in {z}")
            quality = "seasoned"
            if opts.quality == "chosen":
                quality = entry.quality
            elif opts.quality == "rolled":
                quality = self.tables.quality[entry.cls][s.rng.randbelow(6)]
            uid = f"{letter}{clan.units.index(entry) + 1}"
            u = Unit(uid, seat, entry.name, entry.cls, entry.weapon or "mounted", entry.stands, z,
                     FORWARD[seat], d.formation, quality, "table" if on_table else "reserve")
            if u.stands == 1:
                u.form = "open"
            if not s.can_form(u, u.form):
                raise FormatError(f"{where}: {field}.formation: {entry.name} cannot be in {d.formation} formation")
            if on_table and not s.can_enter(u, z):
                raise FormatError(f"{where}: {field}.zone: {entry.name} cannot be placed in {z} (terrain)")
            s.units[uid] = u
        missing = [u.name for u in clan.units if u.name not in seen]
        if missing:
            raise FormatError(f"{where}: {key}.deploy: units not deployed (place them in a reserve zone): "
                              f"{', '.join(missing)}")
        others = [z for z in placed if z in table.rear_zones(seat) and z not in table.setup_zones(seat)]
        if others and any(placed.get(z, 0) < table.limit for z in table.setup_zones(seat)):
            raise FormatError(f"{where}: {key}.deploy: units in {', '.join(sorted(others))} before the set-up "
                              f"zones {', '.join(table.setup_zones(seat))} are full")
        s.units = dict(sorted(s.units.items(), key=lambda kv: (kv[1].side, int(kv[0][1:]))))
        s.start_units[seat] = len(clan.units)

    def state_from_json(self, data: dict[str, Any]) -> HVState:
        return HVState.from_json(self, data)
