"""Combat (003:97-168): the hand-to-hand and shooting sequences. The table questions a combat
needs (did the charge reach, how many miniatures in contact, which range band...), the
dice thrown from the troops as they stood (:mod:`kassen.rulesets.kensei.rolls`), and the
resolution: casualties, the winner, Honour rolls (K12, K34)."""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any

from kassen.engine.tasks import Task
from kassen.rulesets.kensei.common import JSON
from kassen.rulesets.kensei.honour import HonourRules
from kassen.rulesets.kensei.rolls import (
    Damage,
    Situation,
    apply_damage,
    hits,
    plan_melee,
    plan_shot,
    target_of,
)
from kassen.rulesets.kensei.tasks import QUESTIONS


class CombatRules(HonourRules):
    """A combat's questions, rolls and resolution."""

    def _start_combat(self, c: JSON) -> None:
        """Queue the table questions of a combat; it resolves when they are answered."""
        d = self.data
        s, uid = c["attacker"]
        q, target = c["target"]
        if self._gone(s, uid) or self._gone(q, target):
            return
        d["combat"] = c
        c["answers"] = {}
        n0 = len(self.questions)
        p, tp = self.profile(s, uid), self.profile(q, target)
        if c.get("hold"):
            self._shot_questions(q, target, s, uid, "hold")
        if c["verb"] == "shoot":
            self._shot_questions(s, uid, q, target, "a")
            if c.get("shoot_back"):
                self._shot_questions(q, target, s, uid, "back")
        else:
            if c["verb"] == "charge":
                self._ask(s, "charge", ["charge reached-outside", "charge reached-inside", "charge missed"],
                          f"did {p.name}'s charge reach {tp.name}, and did it begin out of the enemy's control area? "
                          f"(003:123)")
                if p.troop.banner and self.unit(s, uid)["left"] > 1:
                    self._ask(s, "banner", ["banner front", "banner back"],
                              f"does {p.name} charge with its Hata-Jurushi in the front rank? (003:124; K45)")
            self._melee_questions(s, uid, "a")
            self._melee_questions(q, target, "b")
            self._ask(s, "position", ["position front", "position flank", "position rear"],
                      f"where does {p.name} attack {tp.name}? (003:135-136)")
            for side, (ss, su) in (("a", (s, uid)), ("b", (q, target))):
                self._ask(ss, f"cover-{side}", ["cover no", "cover yes"],
                          f"is {self.profile(ss, su).name} behind cover? (003:133)")
        self._ask(s, "resolve", ["roll"], "roll the dice (or type them: kassen run --dice)")
        for x in self.questions[n0:]:
            x["combat"] = True

    def _melee_questions(self, s: int, uid: str, side: str) -> None:
        p, u = self.profile(s, uid), self.unit(s, uid)
        rank = u["left"] - (1 if u["leader"] else 0)
        if not p.single and rank > 0:
            self._ask(s, f"contact-{side}", [f"contact {n}" for n in range(1, rank + 1)],
                      f"how many of {p.name}'s miniatures (not the leader) are in hand to hand combat? (003:119)")
        if u["leader"] and not p.single and u["left"] > 1:
            self._ask(s, f"leader-{side}", ["leader direct", "leader support"],
                      f"is {p.name}'s unit leader in direct combat or in support? (003:120)")
        if not p.single:
            opts = ["order formed", "order broken"] + ([] if p.troop.skirmishers else ["order ranks"])
            self._ask(s, f"order-{side}", opts, f"{p.name}: in formation, with two complete ranks in closed formation, "
                                                f"or out of cohesion? (003:121, 003:127)")
        if p.melee_type == 2:
            self._ask(s, f"opponents-{side}", ["opponents one", "opponents many"],
                      f"does a miniature of {p.name} fight several opponents? (003:223)")

    def _shot_questions(self, s: int, uid: str, q: int, target: str, side: str) -> None:
        p, u = self.profile(s, uid), self.unit(s, uid)
        w = p.ranged
        bands = [b for b in ("short", "mid", "long") if ("short", "mid", "long").index(b) <= ("short", "mid", "long").index(w.band)]
        self._ask(s, f"band-{side}", [f"band {b}" for b in bands] + ["band out-of-range"],
                  f"{p.name} shoots {self.profile(q, target).name}: at what range? (003:111-113)")
        rank = u["left"] - (1 if u["leader"] else 0) - (1 if p.troop.banner else 0)  # 003:156
        if not p.single and rank > 0:
            self._ask(s, f"edges-{side}", [f"edges {n}" for n in range(0, rank + 1)],
                      f"how many of {p.name}'s miniatures on the front or flank edges see the target? (003:156)")
            self._ask(s, f"formation-{side}", ["formation in", "formation out"], f"is {p.name} in formation? (003:160)")
        if u["leader"] and not p.single:
            self._ask(s, f"leader-{side}", ["leader sees", "leader hidden"],
                      f"is {p.name}'s leader on the edge with line of sight? (003:157)")
        tu = self.unit(q, target)
        self._ask(q, f"cover-{side}", ["cover no", "cover yes"],
                  f"is {self.profile(q, target).name} behind cover from this shot? (003:168)")
        if tu["leader"] and not self.profile(q, target).single:
            self._ask(q, f"visible-{side}", ["visible no", "visible yes"],
                      f"is {self.profile(q, target).name}'s leader a visible target? (003:144)")



    def _legal_table(self, task: Task) -> list[str]:
        return list(task["options"])

    _legal_roll = _legal_crits = _legal_table

    def _act_table(self, task: Task, action: str) -> None:
        """A table question answered; a charge that falls short ends the combat (K32)."""
        self.stack.pop()
        d = self.data
        key = task["key"]
        c = d["combat"]
        c["answers"][key] = action.split(maxsplit=1)[1]
        if key == "charge" and c["answers"][key] == "missed":
            self.stack = [x for x in self.stack if not (x["t"] in QUESTIONS and x.get("combat"))]
            s, uid = c["attacker"]
            self.emit("charge-missed", {"unit": uid}, f"{self.label(s, uid)}'s charge falls short: no combat (K32)")
            d["combat"] = None

    def _act_roll(self, task: Task, action: str) -> None:
        self.stack.pop()
        self._roll_combat()

    def _act_crits(self, task: Task, action: str) -> None:
        self.stack.pop()
        self.data["combat"]["answers"][task["key"]] = action.split()[1]
        if not any(x["key"].startswith("crits") for x in self.questions):
            self._apply_combat()

    # ------------------------------------------------------------------ rolling
    def _situation(self, s: int, uid: str, side: str, c: JSON, attacking: bool) -> Situation:
        u = self.unit(s, uid)
        a = c["answers"]
        order = a.get(f"order-{side}", "formed")
        charge = c["verb"] == "charge" and attacking
        defence = c.get("defence")
        return Situation(
            charge=charge, charge_from_outside=a.get("charge", "reached-outside") == "reached-outside",
            in_formation=order != "broken" and a.get(f"formation-{side}", "in") == "in",
            complete_ranks=order == "ranks", strengthen=u["strengthen"], used=u["used"],
            reaction_attack=not attacking and defence in ("reaction", "forced"),
            out_of_cohesion=order == "broken", fleeing=u["fleeing"] or u["retreat"], sheltered=u["sheltered"],
            banner_front=charge and a.get("banner") == "front", leader=self._leader_role(u, a, side),
            in_contact=int(a.get(f"contact-{side}", a.get(f"edges-{side}", 0))),
            multiple_opponents=a.get(f"opponents-{side}") == "many",
            position=a.get("position", "front") if attacking else "front",
            death_fog=self.data["fog"][s], hunt_leader=self.data["hunting"][s] == uid, cover=a.get(f"cover-{side}") == "yes",
            ran=u["ran"], miniatures=u["left"], wounds=u["wounds"], stunned=u["stunned"], leader_alive=u["leader"],
            leader_wounds=u["leader_wounds"], wo_bonus=2 if self.data["bushido"][s] else 0)

    @staticmethod
    def _leader_role(u: JSON, a: JSON, side: str) -> Any:
        if not u["leader"]:
            return "none"
        v = a.get(f"leader-{side}")
        if v in ("direct", "sees"):
            return "direct"
        if v == "support":
            return "support"
        return "none"

    def _roll(self, n: int) -> list[int]:
        return [self.die() for _ in range(n)]

    def _roll_combat(self) -> None:
        d = self.data
        c = d["combat"]
        s, uid = c["attacker"]
        q, target = c["target"]
        a = c["answers"]
        rolls: list[JSON] = []
        if c["verb"] == "shoot" or c.get("hold"):
            pairs = []
            if c.get("hold"):
                pairs.append((q, target, s, uid, "hold"))
            if c["verb"] == "shoot":
                pairs.append((s, uid, q, target, "a"))
                if c.get("shoot_back"):
                    pairs.append((q, target, s, uid, "back"))
            for (x, xu, y, yu, side) in pairs:
                if a.get(f"band-{side}") == "out-of-range":
                    self.emit("out-of-range", {"unit": xu}, f"{self.label(x, xu)}: the target is out of range, no shot")
                    continue
                sx = replace(self._situation(x, xu, side, c, True), range_band=a.get(f"band-{side}", "short"),
                             charge=False, banner_front=False, position="front",
                             leader="direct" if a.get(f"leader-{side}") == "sees" else "none")
                sy = replace(self._situation(y, yu, side, {**c, "answers": {f"cover-{side}": a.get(f"cover-{side}")}},
                                             False),
                             leader="direct" if a.get(f"visible-{side}") == "yes" else "none")
                rolls.append(self._one_roll(x, xu, y, yu, sx, sy, "shooting"))
                if self.profile(x, xu).ranged.firearm:
                    self.unit(x, xu)["unloaded"] = True
                self.unit(x, xu)["strengthen"] = False
        if c["verb"] in ("attack", "charge"):
            sa = self._situation(s, uid, "a", c, True)
            sb = self._situation(q, target, "b", c, False)
            rolls.append(self._one_roll(s, uid, q, target, sa, sb, "hand-to-hand"))
            rolls.append(self._one_roll(q, target, s, uid, sb, sa, "hand-to-hand"))
            self.unit(s, uid)["strengthen"] = False
            self.unit(q, target)["strengthen"] = False
        c["rolls"] = rolls
        for i, r in enumerate(rolls):
            if r["criticals"] and r["exposed"]:
                x = r["by"][0]
                self._ask(x, f"crits-{i}", ["crits leader", "crits unit"],
                          f"{r['criticals']} critical(s): put the wound(s) on the enemy leader or on the unit? (003:144)")
        if not self.questions:
            self._apply_combat()

    def _one_roll(self, x: int, xu: str, y: int, yu: str, sx: Situation, sy: Situation, kind: str) -> JSON:
        px, py = self.profile(x, xu), self.profile(y, yu)
        plan = plan_melee(px, py, sx, sy, self.tables) if kind == "hand-to-hand" else plan_shot(px, py, sx, sy, self.tables)
        combat = self._roll(plan.dice)
        n = hits(plan, combat)
        damage = self._roll(n)
        mods = ", ".join(f"{m.name} {m.value:+d} ({m.source})" for m in plan.modifiers()) or "none"
        self.emit("roll", {"by": [x, xu], "on": [y, yu], "kind": kind, "dice": combat, "damage": damage},
                  f"{px.name} {'shoots' if kind == 'shooting' else 'fights'}: {plan.dice} dice {combat} -> {n} impact(s); "
                  f"damage dice {damage} (modifiers: {mods})")
        exposed = plan.target.leader and sy.leader == "direct"
        crits = sum(1 for v in damage if v == 6)
        return {"by": [x, xu], "on": [y, yu], "kind": kind, "combat": combat, "damage": damage, "criticals": crits,
                "exposed": bool(exposed), "sx": asdict(sx), "sy": asdict(sy)}

    def _apply_combat(self) -> None:
        """Combat resolution (003:101, 003:107): casualties, the winner, Honour rolls. Each roll's
        dice were thrown from the troops as they stood before the combat; the results are put
        on the targets one after the other (K34)."""
        d = self.data
        c = d["combat"]
        results: list[tuple[JSON, Damage]] = []
        for i, r in enumerate(c["rolls"]):
            x, xu = r["by"]
            y, yu = r["on"]
            u = self.unit(y, yu)
            if u["left"] == 0:
                continue
            sx = replace(Situation(**r["sx"]), crits_to_leader=c["answers"].get(f"crits-{i}") == "leader")
            sy = Situation(**r["sy"])
            px, py = self.profile(x, xu), self.profile(y, yu)
            plan = (plan_melee if r["kind"] == "hand-to-hand" else plan_shot)(px, py, sx, sy, self.tables)
            low = wounds = crits = 0
            for v in r["damage"]:
                if v == 1:
                    continue
                if v == 6:
                    crits += 1
                elif v + plan.damage >= plan.difficulty:
                    wounds += 1
                else:
                    low += 1
            now = replace(sy, miniatures=u["left"], wounds=u["wounds"], stunned=u["stunned"],
                          leader_alive=u["leader"], leader_wounds=u["leader_wounds"])
            dmg = apply_damage(target_of(py, now, sx), len(r["damage"]), low, wounds, crits, plan.stuns)
            self._put(y, yu, dmg)
            self.emit("damage", {"unit": yu, "wounds": dmg.total_wounds, "left": u["left"]},
                      f"{self.label(y, yu)}: {dmg.wounds} wound(s)"
                      + (f" + {dmg.stun_wounds} from Stunned markers" if dmg.stun_wounds else "")
                      + (f", {dmg.stuns_added} Stunned marker(s)" if dmg.stuns_added else "")
                      + f", {dmg.casualties} casualty(ies)" + (" (the leader among them)" if dmg.leader_killed else "")
                      + f"; {u['left']} miniature(s) left")
            results.append((r, dmg))
        d["combat"] = None
        if self.phase == "over":
            return
        if c["verb"] in ("attack", "charge"):
            s, uid = c["attacker"]
            q, target = c["target"]
            wa = sum(dm.total_wounds for r, dm in results if r["by"] == [s, uid] and r["kind"] == "hand-to-hand")
            wb = sum(dm.total_wounds for r, dm in results if r["by"] == [q, target] and r["kind"] == "hand-to-hand")
            if wa == wb:
                self.emit("melee-draw", {}, f"The combat is a draw ({wa} wound(s) each, K12): melee movements at "
                                            f"the table")
                return
            win, loser = ((s, uid), (q, target)) if wa > wb else ((q, target), (s, uid))
            margin = abs(wa - wb)
            self.emit("melee-won", {"winner": win[1], "margin": margin},
                      f"{self.label(*win)} wins the combat by {margin} (K12); melee movements at the table")
            lp, lu = self.profile(*loser), self.unit(*loser)
            if lp.title.loses_margin and lu["left"] > 0:
                extra = min(margin, lu["left"])
                self._remove(loser[0], loser[1], extra)
                self.emit("peasants", {"unit": loser[1], "removed": extra},
                          f"{self.label(*loser)} are peasants: {extra} more removed (003:256)")
            self._honour(loser[0], loser[1], "lost a combat")
        else:
            for r, dm in results:
                y, yu = r["on"]
                if dm.total_wounds and self.unit(y, yu)["left"] > 0:
                    self._honour(y, yu, "was shot")
