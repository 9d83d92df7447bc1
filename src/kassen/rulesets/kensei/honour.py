"""Wounds, casualties and the Honour roll (003:101-107, 003:144, 003:244-256; K27-K30): the
damage put on a troop, a destroyed army, and the Honour rolls played at the table."""

from __future__ import annotations

from kassen.engine.tasks import Task
from kassen.rulesets.kensei.common import KenseiData
from kassen.rulesets.kensei.rolls import Damage, Situation, apply_damage, target_of


class HonourRules(KenseiData):
    """Casualties and Honour rolls."""

    def _put(self, y: int, yu: str, dmg: Damage) -> None:
        u = self.unit(y, yu)
        had_leader = u["leader"]
        after = dmg.after
        u["left"] = after.miniatures
        u["wounds"], u["stunned"] = after.wounds, after.stunned
        u["leader"], u["leader_wounds"] = after.leader, after.leader_wounds
        if dmg.leader_killed and had_leader:
            u["leader_lost_this_turn"] = True
        u["lost_this_turn"] += dmg.casualties - (1 if dmg.leader_killed else 0)
        if u["left"] == 0:
            self.emit("destroyed", {"unit": yu}, f"{self.label(y, yu)} is destroyed")
            self._check_wipe()

    def _remove(self, y: int, yu: str, n: int) -> None:
        u = self.unit(y, yu)
        u["left"] -= n
        u["lost_this_turn"] += n
        if u["left"] <= 0:
            u["left"] = 0
            self.emit("destroyed", {"unit": yu}, f"{self.label(y, yu)} is destroyed")
            self._check_wipe()

    def _check_wipe(self) -> None:
        for s in (0, 1):
            if not self.alive(s) and self.phase != "over":
                self._end(1 - s, f"{self.name(s)}'s army is destroyed")
                return

    # ------------------------------------------------------------------ Honour rolls (K27-K30)
    def _honour(self, s: int, uid: str, why: str) -> None:
        if self.phase == "over" or self.unit(s, uid)["left"] == 0:
            return
        self._ask(s, "honour", ["honour pass", "honour fail"],
                  f"Honour roll for {self.label(s, uid)} ({self._ho(s, uid)}), which {why} (003:102, 003:107): roll it "
                  f"at the table (K27) and enter the result", unit=uid)

    def _ho(self, s: int, uid: str) -> str:
        """The troop's Honour attribute as the players need it for the roll (003:182, 003:244)."""
        p, u = self.profile(s, uid), self.unit(s, uid)
        ho = p.cls.ho - (1 if u["dishonoured"] else 0)
        return f"HO {ho}" + (" with -1 for the Dishonoured marker" if u["dishonoured"] else "")

    def _act_honour(self, task: Task, action: str) -> None:
        self.stack.pop()
        s, uid = int(task["seat"]), str(task["unit"])
        u, p = self.unit(s, uid), self.profile(s, uid)
        if u["left"] == 0:
            return
        if action == "honour pass":
            self.emit("honour", {"unit": uid, "pass": True}, f"{self.label(s, uid)} passes its Honour roll")
            return
        if p.title.honour_fail == "wound":
            self._extra_wound(s, uid, "fails its Honour roll and cannot retreat: an additional wound (003:252)")
        elif p.title.honour_fail == "stay-or-withdraw":
            self._ask(s, "samurai", ["samurai stay", "samurai withdraw"],
                      f"{self.label(s, uid)} failed its Honour roll: stay in combat (+1 wound) or withdraw "
                      f"(Dishonoured)? (003:244)", unit=uid)
        else:
            u["retreat"] = True
            self.emit("retreat", {"unit": uid}, f"{self.label(s, uid)} fails its Honour roll: Unit in Retreat "
                                                f"marker, retreat movement at the table (K28)")

    def _act_samurai(self, task: Task, action: str) -> None:
        self.stack.pop()
        s, uid = int(task["seat"]), str(task["unit"])
        u = self.unit(s, uid)
        if u["left"] == 0:
            return
        if action == "samurai stay":
            self._extra_wound(s, uid, "stays in combat and takes an extra wound (003:244)")
        else:
            u["dishonoured"] = True
            u["fleeing"] = True
            self.emit("dishonoured", {"unit": uid}, f"{self.label(s, uid)} withdraws facing the enemy and is "
                                                    f"Dishonoured: -1 Honour and Initiative (003:244)")

    def _act_retreat_honour(self, task: Task, action: str) -> None:
        """A unit in retreat rallies or keeps retreating (003:43, K28)."""
        self.stack.pop()
        s = int(task["seat"])
        u = self.unit(s, task["unit"])
        if action == "honour pass":
            u["retreat"] = False
            self.emit("honour", {"unit": u["id"], "pass": True}, f"{self.label(s, u['id'])} passes its Honour "
                                                                 f"roll and rallies (K28)")
        else:
            self.emit("honour", {"unit": u["id"], "pass": False},
                      f"{self.label(s, u['id'])} fails its Honour roll: it keeps retreating (flee movement at the "
                      f"table, K28)")

    def _legal_honour(self, task: Task) -> list[str]:
        return list(task["options"])

    _legal_samurai = _legal_retreat_honour = _legal_honour

    def _extra_wound(self, s: int, uid: str, text: str) -> None:
        u, p = self.unit(s, uid), self.profile(s, uid)
        st = Situation(miniatures=u["left"], wounds=u["wounds"], stunned=u["stunned"], leader_alive=u["leader"],
                       leader_wounds=u["leader_wounds"])
        dmg = apply_damage(target_of(p, st, Situation()), 1, 0, 1, 0, False)
        self._put(s, uid, dmg)
        self.emit("extra-wound", {"unit": uid}, f"{self.label(s, uid)} {text}")
