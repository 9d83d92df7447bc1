"""The Remove Losses Phase (001:447-488): stands lost to hit markers, routs, breaking contact."""

from __future__ import annotations

from kassen.engine.events import plural
from kassen.rulesets.honourable_victory.common import Unit, uid_key
from kassen.rulesets.honourable_victory.hand_to_hand import HandToHandRules
from kassen.rulesets.honourable_victory.tasks import BreakoffTask


class LossRules(HandToHandRules):
    """Removing losses, routs and breaking contact (ruling H6)."""

    def _remove_losses(self) -> None:
        """The Remove Losses Phase: by stands remaining, non-initiative side first at each step."""
        non = 1 - self.init
        order = sorted((u for u in self.units.values() if u.status in ("table", "reserve") and u.hits),
                       key=lambda u: (u.stands, 0 if u.side == non else 1, uid_key(u.uid)))
        ask: list[str] = []
        for u in order:
            if u.status not in ("table", "reserve"):
                continue
            lost = min(u.hits // 2, u.stands)
            before = u.stands
            u.stands -= lost
            left = u.hits - 2 * lost
            u.hits = 0
            self._say("losses", f"{u.uid} removes {plural(lost, 'stand')} ({before} -> {u.stands})"
                      + (f"; {plural(left, 'leftover hit marker')} removed" if left else ""),
                      unit=u.uid, lost=lost, stands=u.stands, side=u.side)
            if u.stands == 0:
                self._rout(u, "is destroyed")
            elif lost and u.stands == 1:
                self._rout(u, "is reduced to a single stand and routs")
            elif not self.can_form(u, u.form):
                self._rout(u, f"is no longer in a valid {u.form} formation and routs")
            elif lost:
                ask.append(u.uid)
        self._next_breakoff(ask)

    def _next_breakoff(self, ask: list[str]) -> None:
        """001:465-469: the owner chooses which stands to remove, and may so break contact with
        the enemies his unit was engaged with (ruling H6): each unit that lost stands and is
        still engaged asks its owner, in the order losses were removed; then the movement phase."""
        ask = [uid for uid in ask if self.u(uid).status == "table" and self.engaged(uid)]
        if ask:
            self._decide(BreakoffTask(t="breakoff", seat=self.u(ask[0]).side, unit=ask[0], after=ask[1:]))
            return
        if self._result is None:
            self._begin_move(self.init)

    def _legal_breakoff(self, task: BreakoffTask) -> list[str]:
        uid = task["unit"]
        return [f"{uid} hold", f"{uid} break"]

    def _act_breakoff(self, task: BreakoffTask, action: str) -> None:
        uid, verb = action.split()
        after = list(task["after"])
        if verb == "break":
            enemies = self.enemies_engaged(uid)
            self.contacts = [c for c in self.contacts if c[0] != uid and c[2] != uid]
            self._say("break_contact", f"{self.label(self.u(uid))} removes the stands in contact and breaks "
                      f"contact with {', '.join(enemies)}", unit=uid, enemies=enemies)
        self._next_breakoff(after)

    def _rout(self, u: Unit, why: str) -> None:
        u.status = "routed"
        self.contacts = [c for c in self.contacts if c[0] != u.uid and c[2] != u.uid]
        self.tally[u.side] += 1
        self._say("rout", f"{self.label(u)} {why}", unit=u.uid, side=u.side)
