"""Set-up (003:12-35): the battle scenario, the secret secondary missions, the Strategy roll,
the terrain, and the Strategy roll's winner choosing the side and role."""

from __future__ import annotations

from kassen.engine.events import Event
from kassen.engine.tasks import Task
from kassen.rulesets.kensei.activation import ActivationRules


class SetupRules(ActivationRules):
    """Before the first turn."""

    def _auto_setup(self, task: Task) -> bool:
        self._setup()
        return True

    def _setup(self) -> None:
        d = self.data
        t = self.tables
        if d["scenario"] is None:
            roll = self.die()
            d["scenario"] = t.scenario(roll).id
            self.emit("scenario", {"roll": roll, "scenario": d["scenario"]},
                      f"Scenario roll {roll}: {t.scenario(roll).name} (003:32-35)")
        for s in (0, 1):
            d["secondary"][s] = self.die()
            self.emit("secondary", {"seat": s}, f"{self.name(s)} rolls its secret secondary mission", visible_to=(s,),
                      redacted=Event("secondary", {"seat": s}, f"{self.name(s)} rolls its secret secondary mission"))
        while True:
            rolls = [self.die(), self.die()]
            tot = [rolls[s] + t.sheet.commanders[self.rosters[s].commander].strategy for s in (0, 1)]
            d["strategy"] = tot
            self.emit("strategy", {"rolls": rolls, "totals": tot},
                      f"Strategy roll: {self.name(0)} {rolls[0]}+{tot[0] - rolls[0]} = {tot[0]}, "
                      f"{self.name(1)} {rolls[1]}+{tot[1] - rolls[1]} = {tot[1]} (003:20)")
            if tot[0] != tot[1]:
                break
            self.emit("strategy-tie", {}, "A tie: both roll again (K26)")
        d["strategy_winner"] = w = 0 if tot[0] > tot[1] else 1
        roll = self.die()
        extra = [t.sheet.commanders[self.rosters[s].commander].terrain for s in (0, 1)]
        d["terrain"] = {"generic": roll + 1, "extra": extra}
        self.emit("terrain", {"roll": roll, "generic": roll + 1, "extra": extra},
                  f"{self.name(w)} won the Strategy roll and rolls {roll} + 1: {roll + 1} generic scenery elements, "
                  f"ground-changing ones first, then the mission's, then the rest; extra elements: {self.name(0)} "
                  f"+{extra[0]}, {self.name(1)} +{extra[1]} (003:24). Place them in turns at the table.")
        for s in (0, 1):
            if self.rosters[s].ability == "poison":
                self._use_ability(s, "poison")
        self.phase = "role"
        d["mover"] = d["strategy_winner"]
        d["prompt"] = "the Strategy roll's winner chooses the side of the table and the role (003:28)"

    def _legal_role(self, task: Task) -> list[str]:
        return ["role attacker", "role defender"]

    def _act_role(self, task: Task, action: str) -> None:
        d = self.data
        s = int(d["mover"])
        role = action.split()[1]
        d["roles"][s], d["roles"][1 - s] = role, "defender" if role == "attacker" else "attacker"
        self.emit("role", {"seat": s, "role": role},
                  f"{self.name(s)} chooses the side of the table and plays the {role} (003:28); deployment "
                  f"at the table, {self.name(s)} first")
        self.phase = "turn-start"
