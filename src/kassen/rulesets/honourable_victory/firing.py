"""The Firing Phase (001:257-334): declaring fire in turn, then resolving it all at once."""

from __future__ import annotations

from kassen.engine.events import Event, plural
from kassen.rulesets.honourable_victory.common import FIRE_HIT, SIDES, Unit, uid_key
from kassen.rulesets.honourable_victory.tasks import FireTask
from kassen.rulesets.honourable_victory.turn import TurnRules


class FiringRules(TurnRules):
    """Declarations, targets, fire dice and their resolution."""

    def can_fire_in_phase(self, u: Unit) -> bool:
        return (u.status == "table" and not u.fired and not self.engaged(u.uid)
                and self.tables.weapons[u.weapon].fires == "phase")

    def can_defensive_fire(self, u: Unit) -> bool:
        """Defensive fire: a foot unit with bows, firearms or spears (or dismounted) and no red marker."""
        return self.is_foot(u) and not u.fired and self.tables.weapons[u.weapon].fires in ("phase", "reacting")

    def fire_targets(self, u: Unit, decl: list[tuple[str, str]]) -> list[str]:
        """Choosing a Unit's Target: unengaged enemies in the zone, fire spread evenly."""
        targets = [e for e in self.on_table(1 - u.side) if e.zone == u.zone and not self.engaged(e.uid)]
        if not targets:
            return []
        counts = {e.uid: sum(1 for _, t in decl if t == e.uid) for e in targets}
        least = min(counts.values())
        return sorted((t for t, n in counts.items() if n == least), key=uid_key)

    def _fire_actions(self, seat: int) -> list[str]:
        decl = self.fire_decl[seat]
        done = {f for f, _ in decl}
        out: list[str] = []
        for u in self.on_table(seat):
            if u.uid not in done and self.can_fire_in_phase(u):
                out.extend(f"fire {u.uid} {t}" for t in self.fire_targets(u, decl))
        return out

    def _legal_fire(self, task: FireTask) -> list[str]:
        return [*self._fire_actions(task["seat"]), "done"]

    def _act_fire(self, task: FireTask, action: str) -> None:
        seat = task["seat"]
        if action == "done":
            task["done"] = task.get("done", 0) + 1
            if task["done"] >= 2:
                self._resolve_fire()
                return
            task["seat"] = 1 - seat
        else:
            _, f, t = action.split()
            self.fire_decl[seat].append((f, t))
            self._ev.append(Event("declare", {"seat": seat, "firer": f, "target": t},
                                  f"{SIDES[seat]} declares {f} firing at {t}", visible_to=(seat,)))
        self._next_fire()

    def _next_fire(self) -> None:
        """Skip a seat that has nothing left to declare (its only choice is done)."""
        while self.stack and self.stack[-1]["t"] == "fire":
            task = self.stack[-1]
            if self._fire_actions(task["seat"]):
                return
            task["done"] = task.get("done", 0) + 1
            if task["done"] >= 2:
                self._resolve_fire()
                return
            task["seat"] = 1 - task["seat"]

    def fire_dice(self, firer: Unit, target: Unit) -> int:
        """How do you resolve firing: 1D6 a stand and the four modifiers, less cover."""
        n = firer.stands
        if firer.form == "defensive":
            n -= 2
        if self.is_mounted(target):
            n += 1
        if target.form == "defensive":
            n += 2
        if target.form == "open":
            n -= 1
        if self.is_foot(target):
            n -= 2 * self.table.cover(target.zone)
        return max(0, n)

    def _shoot(self, firer: Unit, target: Unit, why: str) -> int:
        n = self.fire_dice(firer, target)
        dice = self._roll(n)
        need = FIRE_HIT[self.quality(firer)]
        hits = sum(1 for d in dice if d <= need)
        target.hits += hits
        firer.fired = True
        self._say("fire", f"{firer.uid} {why} {target.uid} with {n}D6 {dice}: {plural(hits, 'hit')}",
                  firer=firer.uid, target=target.uid, faces=dice, hits=hits, need=need)
        return hits

    def _resolve_fire(self) -> None:
        """All fire is simultaneous: declarations are revealed, then resolved (ruling H7)."""
        order = [self.init, 1 - self.init]
        for seat in order:
            for f, t in self.fire_decl[seat]:
                self._shoot(self.u(f), self.u(t), "fires at")
        self.fire_decl = [[], []]
        self._begin_h2h()
