"""War machines in the turn sequence (003:263-337; K20-K24, K49-K50): a machine troop's
Shoot order asks the table what the engine cannot see (the range band of the Impact
marker, the ammunition, the gunpowder bags, the ground, the enemy units near the vertex,
the line of sight), throws the shoot (impact) roll, asks the engineer's and the Sohei's
choices of a die, then how many miniatures the impact area touches, and throws the damage
roll. The machine is then Unloaded until a Reload order (K50)."""

from __future__ import annotations

from typing import Any

from kassen.engine.tasks import Task
from kassen.rulesets.kensei.combat import CombatRules
from kassen.rulesets.kensei.common import GUNPOWDER_BAGS, JSON
from kassen.rulesets.kensei.rolls import (
    ArtillerySituation,
    ImpactPlan,
    Situation,
    apply_damage,
    plan_artillery_damage,
    plan_impact,
    resolve_impact,
    target_of,
)


class ArtilleryRules(CombatRules):
    """A war machine's shot, step by step."""

    def _start_artillery(self, s: int, uid: str, q: int, target: str) -> None:
        self.data["combat"] = {"verb": "artillery", "attacker": [s, uid], "target": [q, target], "answers": {},
                               "defence": None, "rerolls": [], "ignore": None}
        self._artillery_step()

    def _legal_artillery(self, task: Task) -> list[str]:
        return list(task["options"])

    def _act_artillery(self, task: Task, action: str) -> None:
        self.stack.pop()
        c = self.data["combat"]
        key = str(task["key"])[len("art-"):]
        word, _, value = action.partition(" ")
        c["answers"][key] = value
        if key in ("engineer", "sohei") and word in ("engineer", "sohei"):
            verb, _, n = value.partition(" ")
            if verb == "reroll":
                i = int(n) - 1
                new = self.die()
                c["rerolls"].append([i, new])
                self.emit("artillery-reroll", {"die": i + 1, "value": new},
                          f"{'The engineer' if key == 'engineer' else 'Sohei'} rerolls die {i + 1}: {new} (003:297, "
                          f"003:309)")
            elif verb == "ignore":
                c["ignore"] = int(n) - 1
                self.emit("artillery-ignore", {"die": int(n)}, f"The engineer ignores die {n} (003:296)")
        self._artillery_step()

    def _art_ask(self, s: int, key: str, options: list[str], text: str) -> None:
        self._ask(s, f"art-{key}", options, text, combat=True)

    def _impact_plan(self, c: JSON) -> ImpactPlan:
        s, uid = c["attacker"]
        p, u, a = self.profile(s, uid), self.unit(s, uid), c["answers"]
        return plan_impact(ArtillerySituation(
            machine=str(p.machine_id), ammunition=a["ammo"], range_band=a["band"], gunpowder_bags=int(a["bags"]),
            elevated=a["elevated"] == "yes", strengthen=bool(u["strengthen"]), engineer=p.engineer,
            enemy_units_near_vertex=int(a["near"]), one_crew=u["left"] == 1, shot_at=bool(u.get("shot_at")),
            line_of_sight=a["sight"] == "yes", parabolic=a["sight"] == "parabolic",
            sohei=self.rosters[s].clan == "sohei"), self.tables)

    def _artillery_step(self) -> None:
        """Ask the next question of the shot, or throw the next roll (003:277-303)."""
        d = self.data
        c = d["combat"]
        a: dict[str, Any] = c["answers"]
        s, uid = c["attacker"]
        q, target = c["target"]
        p, u = self.profile(s, uid), self.unit(s, uid)
        tp, tu = self.profile(q, target), self.unit(q, target)
        m = p.machine
        assert m is not None
        sheet = self.tables.sheet
        if "band" not in a:
            self._art_ask(s, "band", [f"band {b}" for b in m.bands] + ["band out-of-range"],
                          f"{p.name}'s {m.name} fires at {tp.name}: place the Impact marker; in which range band is it, "
                          f"inside the Shooting area? (003:279-280)")
            return
        if a["band"] == "out-of-range":
            self.emit("out-of-range", {"unit": uid}, f"{self.label(s, uid)}: the Impact marker is out of the machine's "
                                                     f"range or Shooting area: no shot (003:280)")
            d["combat"] = None
            return
        if "ammo" not in a:
            ok = [x for x in p.ammunition if a["band"] == "short" or not sheet.ammunition[x].short_only]
            self._art_ask(s, "ammo", [f"ammo {x}" for x in ok],
                          f"which ammunition does {p.name} fire? (003:316-324)")
            return
        if "bags" not in a:
            self._art_ask(s, "bags", [f"bags {n}" for n in range(min(2, int(u.get("bags", GUNPOWDER_BAGS))) + 1)],
                          f"how many Gunpowder Bags does {p.name} use ({u.get('bags', GUNPOWDER_BAGS)} left)? "
                          f"(003:329, K50)")
            return
        if "elevated" not in a:
            self._art_ask(s, "elevated", ["elevated no", "elevated yes"],
                          f"does {p.name} shoot from a position higher than the impact point? (003:330)")
            return
        if "near" not in a:
            units = sum(1 for e in self.alive(q) if e["left"] > 1)
            self._art_ask(q, "near", [f"near {n}" for n in range(units + 1)],
                          f"how many of your units of more than one miniature stand 20 cm or less from the vertex of "
                          f"{p.name}'s Shooting area? (003:333)")
            return
        if "sight" not in a:
            self._art_ask(s, "sight", ["sight yes", "sight parabolic"],
                          f"does {p.name} see the impact point, or fire a parabolic shot without line of sight "
                          f"(-2D6, machines with Parabolic shot only)? (003:337)")
            return
        plan = self._impact_plan(c)
        if "dice" not in c:
            c["dice"] = self._roll(plan.dice)
            mods = ", ".join(f"{x.name} {x.value:+d} ({x.source})" for x in plan.dice_mods)
            self.emit("artillery-roll", {"by": [s, uid], "dice": c["dice"]},
                      f"{p.name}'s {m.name} fires {sheet.ammunition[a['ammo']].name}: {plan.dice} dice {c['dice']} "
                      f"(modifiers: {mods}; K20, inference)")
        n = len(c["dice"])
        if p.engineer and n and "engineer" not in a:
            opts = ["engineer keep"] + [f"engineer reroll {i}" for i in range(1, n + 1)] + \
                [f"engineer ignore {i}" for i in range(1, n + 1)]
            self._art_ask(s, "engineer", opts, f"the engineer leading {p.name}'s crew may reroll one die or ignore "
                                               f"one die of {c['dice']} (003:294-297)")
            return
        if self.rosters[s].clan == "sohei" and n and "sohei" not in a:
            self._art_ask(s, "sohei", ["sohei keep"] + [f"sohei reroll {i}" for i in range(1, n + 1)],
                          f"Sohei: reroll one die of your choice of {c['dice']}? (003:309)")
            return
        if "successes" not in c:
            out = resolve_impact(plan, c["dice"], [(int(i), int(v)) for i, v in c["rerolls"]], c["ignore"],
                                 self.tables)
            c["successes"] = out.successes
            self.emit("artillery-impact", {"successes": out.successes},
                      f"{out.successes} success(es) on the impact roll: {out.effect} (003:299-303)")
        imp = sheet.impacts[sheet.ammunition[a["ammo"]].impact]
        if imp.grows == "template" and not c["successes"]:
            self._artillery_done(s, uid)
            return
        if "affected" not in a:
            self._art_ask(s, "affected", [f"affected {k}" for k in range(tu["left"] + 1)],
                          f"move the Impact marker to its final place: how many of {tp.name}'s miniatures does the "
                          f"impact area touch? (003:282, 003:287)")
            return
        if "cover" not in a:
            self._art_ask(q, "cover", ["cover no", "cover yes"], f"is {tp.name} in cover? (003:289)")
            return
        st = Situation(cover=a["cover"] == "yes", miniatures=tu["left"], wounds=tu["wounds"], stunned=tu["stunned"],
                       leader_alive=tu["leader"], leader_wounds=tu["leader_wounds"])
        dplan = plan_artillery_damage(a["ammo"], tp, st, int(a["affected"]), tables=self.tables)
        dice = self._roll(dplan.dice)
        low = wounds = crits = 0
        for v in dice:
            if v == 1:
                continue
            if v == 6:
                crits += 1
            elif v + dplan.damage >= dplan.difficulty:
                wounds += 1
            else:
                low += 1
        dmg = apply_damage(target_of(tp, st, Situation()), len(dice), low, wounds, crits, False)
        self._put(q, target, dmg)
        self.emit("damage", {"unit": target, "wounds": dmg.total_wounds, "left": tu["left"], "dice": dice},
                  f"{self.label(q, target)}: damage roll {dice} ({dplan.dice} dice, {dplan.damage:+d} each; K23): "
                  f"{dmg.total_wounds} wound(s), {dmg.casualties} casualty(ies); {tu['left']} miniature(s) left")
        if dmg.total_wounds and tu["left"] > 0 and self.phase != "over":
            why = ("was shot by infectious ammunition (Terror, 003:303)" if imp.grows == "template"
                   and a["ammo"] == "infectious" else "was shot")
            self._honour(q, target, why)
        self._artillery_done(s, uid)

    def _artillery_done(self, s: int, uid: str) -> None:
        """After the shot: the machine must be reloaded; the bags used are spent (K50)."""
        d = self.data
        c = d["combat"]
        u = self.unit(s, uid)
        u["unloaded"] = True
        u["strengthen"] = False
        u["bags"] = int(u.get("bags", GUNPOWDER_BAGS)) - int(c["answers"].get("bags", 0))
        d["combat"] = None
