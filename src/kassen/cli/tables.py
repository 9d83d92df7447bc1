"""``kassen rules GAME``: each game's tables, named by its spec's ``rules_tables`` hook
(``(spec, cards, as_json) -> None``): the C&C units, terrain and cards, the clan game's cards and
Battlefields, An Honourable Victory!'s classes, weapons and quality table."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.table import Table

from kassen.cli.common import console, fail, plain
from kassen.rulesets.registry import RulesetSpec


def _edition(spec: RulesetSpec) -> str:
    edition = getattr(spec.load(), "edition", None)
    if not isinstance(edition, str):
        fail(f"{spec.id}: a C&C game without an edition")
    return edition


def cc_rules(spec: RulesetSpec, cards: bool, as_json: bool) -> None:
    """A C&C Samurai game's unit and terrain tables, or its Command and Dragon cards."""
    from kassen.rulesets.cc_samurai.data import load_tables

    edition = _edition(spec)
    if as_json:
        tc = load_tables(edition)
        doc = ({"game": spec.id, "command_cards": plain(tc.command), "dragon_cards": plain(tc.dragon)} if cards
               else {"game": spec.id, "units": plain(tc.units), "terrain": plain(tc.terrain)})
        sys.stdout.write(json.dumps(doc, indent=1) + "\n")
        return

    t = load_tables(edition)
    c = console()
    if cards:
        n_cmd, n_dragon = len(t.command_ids), len(t.dragon_ids)
        ct = Table("card", "kind", "copies", "text", title=f"Command cards ({n_cmd})", show_lines=True)
        for cc in t.command.values():
            ct.add_row(cc.name, cc.kind, str(cc.copies), cc.text)
        c.print(ct)
        dt = Table("card", "cost", "copies", "when", "target", "effect", "confidence",
                   title=f"Dragon cards ({n_dragon}) — confidence: A published ruling, B legible in the rulebook, "
                         "C mostly reconstructed", show_lines=True)
        for d in t.dragon.values():
            dt.add_row(d.name, str(d.cost), str(d.copies), d.window, d.target, d.effect, d.confidence)
        c.print(dt)
        return
    ut = Table("code", "unit", "symbol", "blocks", "move", "battle after moving", "close", "ranged", "notes",
               title="Units", show_lines=True)
    ut.columns[1].no_wrap = True
    for code, u in t.units.items():
        rng = ", ".join(f"{d} hex: {n}" for d, n in sorted(u.ranged.items()))
        if u.ranged_moved is not None:
            rng += f"; after moving {u.ranged_moved}"
        close = "1 per block" if u.dice_per_block else str(u.close)
        bm = "no" if u.battle_move == 0 else f"up to {u.battle_move}"
        ut.add_row(code, u.name, u.symbol, str(u.blocks), str(u.move), bm, close, rng or "-", u.notes)
    c.print(ut)
    tt = Table("terrain", "stops", "blocks sight", "on: close/ranged (inf|cav)", "into: close (inf|cav)/ranged",
               title="Terrain (dice maxima; - = no limit, 0 = may not battle)", show_lines=True)

    from kassen.rulesets.cc_samurai.combat import terrain_caps

    def f(v: int | None) -> str:
        return "-" if v is None else str(v)

    # the maxima the engine applies (combat.terrain_caps), attacking from open countryside
    inf = next(u for u in t.units.values() if not u.cavalry)
    cav = next((u for u in t.units.values() if u.cavalry), inf)
    flat = t.terrain["countryside"]

    def into(ter: Any, u: Any, kind: str) -> str:
        caps = terrain_caps(u, kind, flat, ter)
        return f(min(caps) if caps else None)

    for ter in t.terrain.values():
        tt.add_row(
            ter.name + (" (impassable)" if ter.impassable else ""),
            "yes" if ter.stop else "",
            "hill rules" if ter.hill else ("yes" if ter.blocks_los else ""),
            f"{f(ter.on_close_inf)}|{f(ter.on_close_cav)} / {f(ter.on_ranged_inf)}|{f(ter.on_ranged_cav)}",
            f"{into(ter, inf, 'close')}|{into(ter, cav, 'close')} / {into(ter, inf, 'ranged')}"
            + (" (close combat from below; from another hill: no hill limit)" if ter.hill else ""),
        )
    c.print(tt)


def clans_rules(spec: RulesetSpec, cards: bool, as_json: bool) -> None:
    """The clan card game's card table (and, unless ``cards``, its Battlefields); values the
    rulebook lost are labelled as defaults."""
    from kassen.rulesets.clans.data import CARD_TYPES, TILES, load_table

    t = load_table()
    if as_json:
        doc = {"game": spec.id, "cards": plain(t.cards), **({} if cards else {"battlefields": plain(t.battlefields)})}
        sys.stdout.write(json.dumps(doc, indent=1) + "\n")
        return
    cards_only = cards
    c = console()
    default = " (default value)"
    ct = Table("card", "kind", "copies per clan", "Strength", "ability", title=f"Army cards — {t.name}", show_lines=True)
    for slug, (name, kind, copies) in CARD_TYPES.items():
        v = t.cards[slug]
        ct.add_row(name, kind, str(copies), f"{v.strength}{default if v.default else ''}", v.text)
    c.print(ct)
    if not cards_only:
        bt = Table("Battlefield", "VP", "when", "effect", title="Battlefield tiles", show_lines=True)
        for slug, (name, when) in TILES.items():
            b = t.battlefields[slug]
            bt.add_row(name, f"{b.vp}{default if b.default else ''}", when, b.text + (default if b.default else ""))
        c.print(bt)
    c.print("Values marked (default value) are not in the rulebook (its card pictures are lost); Kassen uses "
            f"common published values. Another table: kassen play {spec.id} --option card_table=PATH.")


def hv_rules(spec: RulesetSpec, cards: bool, as_json: bool) -> None:
    """An Honourable Victory!'s unit classes, weapons and the Appendix B quality table."""
    from kassen.rulesets.honourable_victory.data import load_tables as hv_tables

    if cards:
        fail(f"An Honourable Victory! has no cards: `kassen rules {spec.id}{' --json' if as_json else ''}` prints "
             "its tables")
    if as_json:
        sys.stdout.write(json.dumps({"game": spec.id, **plain(hv_tables())}, indent=1) + "\n")
        return
    t = hv_tables()
    c = console()
    ut = Table("class", "weapons", "stands", "actions", "at most per clan", title="Unit classes", show_lines=True)
    for cl in t.classes.values():
        ut.add_row(cl.name, ", ".join(cl.weapons), f"{cl.min_stands}-{cl.max_stands}", str(cl.actions),
                   str(cl.max_per_clan or "-"))
    c.print(ut)
    wt = Table("weapon", "Combat Value", "fires", "at most per clan", title="Weapons", show_lines=True)
    for w in t.weapons.values():
        wt.add_row(w.name, str(w.cv), w.fires, str(w.max_per_clan or "-"))
    c.print(wt)
    qt = Table("unit", *(str(i) for i in range(1, 7)), title="Appendix B: unit quality rolled on 1D6", show_lines=True)
    for who, faces in t.quality.items():
        qt.add_row(who, *faces)
    c.print(qt)
