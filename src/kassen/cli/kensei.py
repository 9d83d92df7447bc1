"""Kensei's hooks of the commands (named by its spec, :mod:`kassen.rulesets.kensei`):
``kassen rules kensei`` (:func:`rules_tables`), ``kassen scenarios kensei``
(:func:`scenario_table`), ``kassen odds --game kensei ENGAGEMENT.toml`` (:func:`odds_table`)
and the terminal view of ``kassen play kensei`` (:func:`render`). The engagement format is in
``docs/formats.md (Kensei)``.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kassen.cli.common import RUNTIME, console, fail
from kassen.engine.errors import KassenError
from kassen.rulesets.kensei.engagement import read_engagement
from kassen.rulesets.registry import RulesetSpec


# ------------------------------------------------------------------ rules
def _plain(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    return obj


def rules_tables(spec: RulesetSpec, cards: bool, as_json: bool) -> None:
    """Print Kensei's tables: troop classes, weapons, armour, titles, clans, war machines, modifiers."""
    from kassen.rulesets.kensei.data import load_tables

    if cards:
        fail(f"{spec.id} has no card list: `kassen rules {spec.id}` prints its tables")
    t = load_tables()
    s = t.sheet
    if as_json:
        out = {"game": spec.id, **_plain(s.model_dump(mode="json")),
               "modifiers": {k: _plain(m) for k, m in t.modifiers.items()}, "difficulty": _plain(t.difficulty)}
        sys.stdout.write(json.dumps(out, indent=1) + "\n")
        return
    c = console()
    ct = Table("class", "name", "MOV", "AT (melee/ranged)", "INI", "HO", "WO", "KI", "source",
               title="Troop attributes (MOV read as Move / Run, ruling K4)", show_lines=False)
    for code, k in s.classes.items():
        ct.add_row(code, k.name, f"{k.mov[0]} / {k.mov[1]}", f"{k.at[0]} / {k.at[1]}", str(k.ini), str(k.ho),
                   str(k.wo), "-" if k.ki is None else str(k.ki), k.source)
    c.print(ct)
    wt = Table("type", "category", "weapons", "effects", "source", title="Hand to hand weapons", show_lines=True)
    for w in s.weapon_types:
        wt.add_row(str(w.type), w.category, ", ".join(w.weapons), "\n".join(e.text for e in w.effects), w.source)
    c.print(wt)
    rt = Table("weapon", "group", "range", "firearm", "source", title="Ranged weapons (firearms: +1 damage, ignore "
                                                                      "worn armour, Unloaded after shooting)")
    for r in s.ranged_weapons.values():
        rt.add_row(r.name, r.band, f"up to {r.max_cm} cm", "yes" if r.firearm else "", r.source)
    c.print(rt)
    bt = Table("band", "distance", "source", title="Shooting ranges")
    for band in s.ranges.values():
        bt.add_row(band.name, f"over {band.min_cm} to {band.max_cm} cm" if band.min_cm else f"0 to {band.max_cm} cm",
                   band.source)
    c.print(bt)
    at = Table("armour", "enemy damage", "source", title="Armour")
    for a in s.armour.values():
        at.add_row(a.name, f"{a.damage:+d}", a.source)
    c.print(at)
    tt = Table("title", "rules", "source", title="Titles", show_lines=True)
    for ti in s.titles.values():
        body = [r.text for r in ti.rules] or [f"Abilities: {', '.join(ti.abilities)}"]
        tt.add_row(ti.name, "\n".join(body), ti.source)
    c.print(tt)
    kt = Table("clan", "abilities (one of them, once per game)", "war machines", "source", title="Clans",
               show_lines=True)
    for cl in s.clans.values():
        kt.add_row(cl.name, "\n".join(f"{a.name}: {a.text}" for a in cl.abilities), cl.war_machines,
                   f"{cl.source}, {cl.war_machines_source}")
    c.print(kt)
    lt = Table("commander", "Strategy roll", "command cards", "extra terrain", "source", title="Commander level")
    for cm in s.commanders.values():
        lt.add_row(cm.name, f"+{cm.strategy}", f"+{cm.cards}", f"+{cm.terrain}", f"{cm.source}, {cm.terrain_source}")
    c.print(lt)
    mt = Table("machine", "AT", "IA (as printed)", "ranges", "source",
               title="War machines (in a roster: machine = \"taiho\" on the crew's troop, K49)")
    for wm in s.war_machines.values():
        mt.add_row(wm.name, str(wm.at), wm.ia, " - ".join(wm.bands), wm.source)
    c.print(mt)
    am = Table("ammunition", "PO", "impact", "effect", "source", title="Ammunition", show_lines=True)
    for ammo in s.ammunition.values():
        am.add_row(ammo.name + (" (short range only)" if ammo.short_only else ""), str(ammo.po), ammo.impact,
                   s.impacts[ammo.impact].text, ammo.source)
    c.print(am)
    md = Table("roll", "modifier", "value", "source", title=f"Roll modifiers (difficulty {t.difficulty.value}+; "
                                                            "dice rolls: dice added; the others: added to each die)")
    for m in t.modifiers.values():
        value = f"{m.value:+d}" if m.value else "the attribute"
        md.add_row(m.roll, m.name + (" (inference)" if m.inference else ""), ("each " if m.per else "") + value,
                   m.source)
    c.print(md)


# ------------------------------------------------------------------ scenarios
def scenario_table(spec: RulesetSpec, as_json: bool) -> None:
    """The six battle scenarios of the sheet, by the 1D6 roll that picks them."""
    from kassen.rulesets.kensei.data import load_tables

    rows = [{"game": spec.id, "roll": sc.roll, "id": sc.id, "name": sc.name, "source": sc.source,
             "missions": "not on the quick-reference sheet (K30)"} for sc in
            sorted(load_tables().sheet.scenarios, key=lambda x: x.roll)]
    if as_json:
        sys.stdout.write(json.dumps(rows, indent=1) + "\n")
        return
    t = Table("1D6", "id", "scenario", "source", title="Kensei battle scenarios (003:14-35)")
    for r in rows:
        t.add_row(str(r["roll"]), str(r["id"]), str(r["name"]), str(r["source"]))
    c = console()
    c.print(t)
    c.print("Both players share the scenario's main mission; each rolls a secret 1D6 for a secondary mission. The "
            "missions are not on the quick-reference sheet: play them from the rulebook (K30).")


# ------------------------------------------------------------------ odds
def _dist_row(d: dict[str, Any]) -> str:
    return "  ".join(f"{k}: {v['float']:.1%}" for k, v in d.items() if v["float"] >= 0.0005) or "-"


def _print_roll(c: Console, title: str, r: dict[str, Any]) -> None:
    p = r["plan"]
    t = Table("modifier", "value", "source", title=f"{title}: {p['dice']} dice, hit on "
                                                      f"{p['difficulty']}+ {p['hit_modifier']:+d}, damage "
                                                      f"{p['damage_modifier']:+d}" + ("" if p["stuns"] else
                                                                                      ", no Stunned markers"))
    for group, label in (("dice_modifiers", "dice"), ("hit_modifiers", "to hit"), ("damage_modifiers", "damage")):
        for m in p[group]:
            t.add_row(f"{m['name']} ({label})" + (" (inference)" if m["inference"] else ""), f"{m['value']:+d}",
                      m["source"])
    c.print(t)
    for name in ("impacts", "wounds", "stuns", "casualties"):
        c.print(f"  {name:<10} {_dist_row(r[name])}   (mean {r['expected'][name]:.2f})")
    c.print(f"  criticals  {_dist_row(r['criticals'])}")
    _print_left(c, r)
    if Fraction(r["leader_killed"]):
        c.print(f"  leader killed: {float(Fraction(r['leader_killed'])):.1%}")
    c.print(f"  troop wiped out: {float(Fraction(r['wiped_out'])):.1%}")


def _print_left(c: Console, r: dict[str, Any]) -> None:
    """The joint law of the markers left on the target once Stunned markers are turned into
    wounds (003:142; undead 3 a wound, 003:252): what the player puts on the table."""
    rows = [x for x in r.get("left", []) if x["float"] >= 0.0005]
    if not rows:
        return
    stunned = sorted({x["stunned"] for x in r["left"]})
    wounds = sorted({x["wounds"] for x in r["left"]})
    cell = {(x["wounds"], x["stunned"]): x["float"] for x in r["left"]}
    t = Table("wound markers left", *(f"{s} Stunned" for s in stunned),
              title=f"Markers left on {r['plan']['target']} after the roll (Stunned markers turned into wounds)")
    for w in wounds:
        t.add_row(str(w), *(f"{cell[(w, s)]:.1%}" if (w, s) in cell else "-" for s in stunned))
    c.print(t)


def odds_table(spec: RulesetSpec, engagement: Path, as_json: bool) -> None:
    """Exact odds of a Kensei hand-to-hand combat, shot or artillery shot, with every modifier and its
    sheet line; ``engagement`` is a TOML file: kind, [attacker] and [defender] (or [artillery] and
    [target]), docs/formats.md (Kensei)."""
    try:
        r = read_engagement(engagement)
    except KassenError as exc:
        fail(str(exc), RUNTIME)
    if as_json:
        sys.stdout.write(json.dumps(r, indent=1) + "\n")
        return
    c = console()
    if r["kind"] == "hand-to-hand":
        _print_roll(c, f"{r['a']['plan']['attacker']} fights {r['a']['plan']['target']}", r["a"])
        _print_roll(c, f"{r['b']['plan']['attacker']} fights {r['b']['plan']['target']}", r["b"])
        c.print(f"[bold]Who wins (more wounds caused, ruling K12):[/] {r['a']['plan']['attacker']} "
                f"{r['a_wins']['float']:.1%}, draw {r['draw']['float']:.1%}, {r['b']['plan']['attacker']} "
                f"{r['b_wins']['float']:.1%}")
        c.print(f"Casualties with the peasants' margin (003:256): {r['a']['plan']['attacker']} "
                f"{_dist_row(r['a_casualties'])}; {r['b']['plan']['attacker']} {_dist_row(r['b_casualties'])}")
    elif r["kind"] == "shooting":
        _print_roll(c, f"{r['a']['plan']['attacker']} shoots {r['a']['plan']['target']}", r["a"])
    else:
        ip = r["impact"]["plan"]
        t = Table("modifier", "value", "source", title=f"{ip['machine']} with {ip['ammunition']}: impact roll of "
                                                          f"{ip['dice']} dice (4+), {ip['rerolls']} reroll(s)")
        for m in ip["dice_modifiers"]:
            t.add_row(m["name"] + (" (inference)" if m["inference"] else ""), f"{m['value']:+d}", m["source"])
        c.print(t)
        for k, v in r["impact"]["successes"].items():
            c.print(f"  {k} success(es): {v['float']:.1%}: {r['impact']['effects'][k]}")
        _print_roll(c, f"Damage on {r['a']['plan']['target']}", r["a"])
    c.print("[dim]Exact counts over every die (fractions in --json). Rulings K1... in docs/rulings.md (Kensei); "
            "(inference) marks Kassen's reading where the sheet is silent.[/]")


# ------------------------------------------------------------------ the terminal view (kassen play kensei)
_MARKERS = (("used", "used"), ("fleeing", "fleeing"), ("sheltered", "sheltered"), ("retreat", "in retreat"),
            ("dishonoured", "dishonoured"), ("unloaded", "unloaded"), ("strengthen", "strengthened"),
            ("ran", "ran"), ("poisoned", "poisoned"), ("bought", "bought"))


def render(obs: dict[str, Any], seat: int | None) -> Any:
    """A Kensei battle as tables: each army's troops, miniatures, wounds and markers."""
    from rich.console import Group

    act = obs.get("act") or {}
    head = (f"Turn {obs['turn']} · scenario {obs['scenario']} · initiative: {obs['seats'][obs['initiative']]} · "
            f"command cards {obs['command_cards'][0]} / {obs['command_cards'][1]}")
    parts: list[Any] = [head]
    for s, units in enumerate(obs["units"]):
        active = (act.get("active") or [None, None])[s]
        orders = (act.get("orders") or [0, 0])[s]
        t = Table("troop", "left", "wounds", "stunned", "leader", "markers",
                  title=f"{obs['seats'][s]}" + (f" ({obs['roles'][s]})" if obs["roles"][s] else ""))
        for u in units:
            name = u["name"] + (f" (war machine: {u['machine']}, {u.get('bags', 0)} bags)" if u.get("machine") else "") \
                + (f"  [bold]ACTIVE[/] ({orders} order(s))" if u["id"] == active else "")
            marks = ", ".join(label for key, label in _MARKERS if u.get(key))
            leader = ("yes" + (f", {u['leader_wounds']} wound(s)" if u["leader_wounds"] else "")) if u["leader"] else "-"
            t.add_row(escape(name) if u["id"] != active else name, str(u["left"]) if u["left"] else "[dim]destroyed[/]",
                      str(u["wounds"] or ""), str(u["stunned"] or ""), leader, marks)
        parts.append(t)
    q = obs.get("question")
    if q:
        parts.append(f"[bold]Table question:[/] {escape(str(q['text']))}")
    return Group(*parts)
