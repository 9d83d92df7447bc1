"""The turn sequence (003:37-57, K25-K26, K35, K38): maintenance (army in retreat, command
cards, regeneration, the Honour rolls of units in retreat, clean-up), the Initiative roll,
the Command duel, the end of a turn and of the battle after the last one."""

from __future__ import annotations

from kassen.engine.tasks import Task
from kassen.rulesets.kensei.abilities import AbilityRules
from kassen.rulesets.kensei.common import RETREAT_SHARE, TURNS


class TurnRules(AbilityRules):
    """Maintenance, the initiative, the Command duel and the end of a turn."""

    def _auto_turn_start(self, task: Task) -> bool:
        self._maintenance()
        return True

    def _auto_turn_cleanup(self, task: Task) -> bool:
        """The Honour rolls of the units in retreat are in: the clean-up (K25)."""
        self._cleanup()
        return True

    def _maintenance(self) -> None:
        """003:39-44: army in retreat, command cards, Honour rolls, regeneration, clean-up."""
        d = self.data
        d["turn"] += 1
        if d["turn"] > TURNS:
            self._end_by_turns()
            return
        self.emit("turn", {"turn": d["turn"]}, f"Turn {d['turn']}: maintenance")
        if d["turn"] > 1:
            for s in (0, 1):
                if self._in_retreat(s):
                    self._end(1 - s, f"{self.name(s)}'s army is in retreat (75% of its units lost or retreating, K38)")
                    return
        for s in (0, 1):
            r = self.rosters[s]
            d["cards"][s] = self.tables.command_cards(r.points, r.commander)
        self.emit("cards", {"cards": d["cards"]},
                  f"Command cards this turn: {self.name(0)} {d['cards'][0]}, {self.name(1)} {d['cards'][1]} (003:7-10)")
        for s in (0, 1):  # the turn that ended becomes "the previous turn"
            for u in d["units"][s]:
                u["lost_last_turn"], u["lost_this_turn"] = u["lost_this_turn"], 0
                u["leader_lost_last_turn"], u["leader_lost_this_turn"] = u["leader_lost_this_turn"], False
        for s in (0, 1):
            for u in self.alive(s):
                p = self.profile(s, u["id"])
                if p.title.regeneration and d["turn"] > 1 and (u["lost_last_turn"] or u["leader_lost_last_turn"]):
                    roll = self.die()
                    if roll == 6:
                        if u["lost_last_turn"]:
                            u["left"] += 1
                        else:
                            u["left"] += 1
                            u["leader"] = True
                            u["leader_wounds"] = (p.leader_wo - 1) if p.leader else 0
                        self.emit("regenerate", {"unit": u["id"], "roll": roll},
                                  f"{self.label(s, u['id'])} regenerates a casualty (a natural 6, 003:252)")
                    else:
                        self.emit("regenerate", {"unit": u["id"], "roll": roll},
                                  f"{self.label(s, u['id'])} rolls {roll} to regenerate: nothing (003:252)")
        for s in (0, 1):
            for u in self.alive(s):
                if u["retreat"]:
                    self._ask(s, "honour-retreat", ["honour pass", "honour fail"],
                              f"Honour roll for {self.label(s, u['id'])} ({self._ho(s, u['id'])}), in retreat "
                              f"(003:43); roll it at the table (K27) and enter the result", unit=u["id"])
        self.phase = "turn-cleanup"
        if not self.questions:
            self._cleanup()

    def _cleanup(self) -> None:
        d = self.data
        for s in (0, 1):
            for u in d["units"][s]:
                u["used"] = False
                u["fleeing"] = False
                u["sheltered"] = False
                u["strengthen"] = False
                u["ran"] = False
                if "shot_at" in u:  # a war machine's crew (K50)
                    u["shot_at"] = False
                u["bought"] = False
                if not u["poisoned"]:
                    u["stunned"] = 0
        d["bushido"], d["fog"], d["hunt"] = [False, False], [False, False], [False, False]
        self.emit("cleanup", {}, "Used Unit, Stunned Unit (not poison) and Fleeing, Sheltered markers removed (K25)")
        a, b = self.die(), self.die()
        while a == b:
            self.emit("initiative-tie", {"rolls": [a, b]}, f"Initiative roll {a}-{b}: a tie, roll again (K26)")
            a, b = self.die(), self.die()
        d["initiative"] = 0 if a > b else 1
        self.emit("initiative", {"rolls": [a, b], "seat": d["initiative"]},
                  f"Initiative roll: {self.name(0)} {a}, {self.name(1)} {b}: {self.name(d['initiative'])} "
                  f"has the initiative (003:48)")
        self.phase = "duel"
        d["duel_declared"] = False
        d["mover"] = 1 - d["initiative"]
        d["prompt"] = "declare a Command duel to steal the initiative, or not (003:52)"

    # ------------------------------------------------------------------ the Command duel (003:52, K35)
    def _legal_duel(self, task: Task) -> list[str]:
        return ["duel", "no duel"]

    def _act_duel(self, task: Task, action: str) -> None:
        d = self.data
        s = int(d["mover"])
        if action == "duel":
            d["duel_declared"] = True
            self.phase = "duel-result"
            d["prompt"] = ("play the Command duel with your command cards at the table (K35) and enter "
                           "whether you won it")
            self.emit("duel", {"seat": s}, f"{self.name(s)} declares a Command duel (003:52)")
        else:
            self.phase = "activation-round"

    def _legal_duel_result(self, task: Task) -> list[str]:
        return ["duel won", "duel lost"]

    def _act_duel_result(self, task: Task, action: str) -> None:
        d = self.data
        s = int(d["mover"])
        if action == "duel won":
            d["initiative"] = s
            self.emit("duel-won", {"seat": s}, f"{self.name(s)} wins the Command duel and takes the initiative")
        else:
            self.emit("duel-lost", {"seat": s}, f"{self.name(s)} loses the Command duel")
        self.phase = "activation-round"

    # ------------------------------------------------------------------ end of turn (003:57, K38)
    def _end_turn(self) -> None:
        d = self.data
        d["extra"] = None
        d["act"] = None
        self.emit("turn-end", {"turn": d["turn"]}, f"End of turn {d['turn']}")
        self.phase = "turn-start"

    def _in_retreat(self, s: int) -> bool:
        units = self.data["units"][s]
        out = sum(1 for u in units if u["left"] == 0 or u["retreat"])
        return out >= RETREAT_SHARE * len(units)

    def _end_by_turns(self) -> None:
        lost = [self.share_lost(0), self.share_lost(1)]
        if lost[0] == lost[1]:
            self._end(None, f"{TURNS} turns played, both armies lost the same share: a draw (K38; score the "
                            f"scenario's missions at the table)")
        else:
            w = 0 if lost[0] < lost[1] else 1
            self._end(w, f"{TURNS} turns played; {self.name(w)} lost the smaller share of its miniatures "
                         f"({lost[w]:.0%} against {lost[1 - w]:.0%}) (K38; score the scenario's missions at the table)")
