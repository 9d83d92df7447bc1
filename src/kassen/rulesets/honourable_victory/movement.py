"""The Movement Phases (001:489-715): performing actions, changing formation, turning, moving,
mounting up and dismounting, engaging, disengaging, withdrawing, ending the phase, the
reserve zones."""

from __future__ import annotations

from kassen.engine.events import plural
from kassen.rulesets.honourable_victory.common import (
    ENGAGE_NEED,
    ENGAGE_NEED_QUALITY,
    FORMS,
    SIDES,
    Unit,
    uid_key,
)
from kassen.rulesets.honourable_victory.losses import LossRules
from kassen.rulesets.honourable_victory.table import DIRS, FACETS, FORWARD, opposite
from kassen.rulesets.honourable_victory.tasks import Act2Task, MoveTask


class MovementRules(LossRules):
    """A side's movement phase, one unit at a time."""

    def _begin_move(self, seat: int) -> None:
        self.mover = seat
        self.chosen = []
        self.cur = None
        self._decide(MoveTask(t="move", seat=seat))
        self._say("phase", f"{SIDES[seat]} movement phase", seat=seat)

    def _end_move_phase(self) -> None:
        for u in self.units.values():
            u.reacted = False
        self.cur = None
        if self.mover == self.init:
            self._begin_move(1 - self.init)
        else:
            self._victory()

    def _move_dest(self, u: Unit, first: bool) -> str | None:
        if u.form == "defensive":
            return None
        dest = self.table.step(u.zone, u.facing)
        if dest is None or self.table.crossing_blocked(u.zone, dest) or not self.can_enter(u, dest):
            return None
        if not self.room(dest, u.side):
            return None
        if self.is_mounted(u) and not first and self.table.restricted(dest):
            return None
        return dest

    def _basic_actions(self, u: Unit, first: bool) -> list[str]:
        """Performing Actions: change formation, turn, move, mount up or dismount."""
        out: list[str] = []
        for f in FORMS:
            if f != u.form and self.can_form(u, f):
                if u.form == "defensive":
                    out.extend(f"{u.uid} form {f} {d}" for d in DIRS)
                else:
                    out.append(f"{u.uid} form {f}")
        if u.form != "defensive":
            out.extend(f"{u.uid} turn {DIRS[d]}" for d in range(4) if d != u.facing)
        if self._move_dest(u, first) is not None:
            out.append(f"{u.uid} move")
        if u.cls == "mounted":
            if u.mounted and self.can_form(u, u.form, mounted=False):
                out.append(f"{u.uid} dismount")
            if not u.mounted and self.can_form(u, u.form, mounted=True) and \
                    not ("woods" in self.table.features(u.zone) and u.form != "open"):
                out.append(f"{u.uid} mount")
        return out

    def can_disengage(self, u: Unit) -> bool:
        if not self.is_mounted(u) or not self.engaged(u.uid):
            return False
        cs = self.contacts_of(u.uid)
        if any(self.is_mounted(self.u(e)) for _, e in cs):
            return False
        return len({f for f, _ in cs}) < 4

    def engage_options(self, u: Unit) -> list[str]:
        """Engaging Enemy Units: who may be engaged, and on which facet (the priorities)."""
        if u.status != "table" or u.form == "defensive" or self.engaged(u.uid):
            return []
        enemies = [e for e in self.on_table(1 - u.side) if e.zone == u.zone]
        free = [e for e in enemies if not self.engaged(e.uid)]
        out: list[str] = []
        for e in sorted(free or enemies, key=lambda x: uid_key(x.uid)):
            occupied = {f for f, _ in self.contacts_of(e.uid)}
            natural = FACETS[(u.facing + 2 - e.facing) % 4]
            if not self.engaged(e.uid) and self.is_mounted(e) and self.is_foot(u) \
                    and u.weapon != "long-spear" and natural != "rear":
                continue
            if natural not in occupied:
                facets = [natural]
            elif "front" not in occupied:
                facets = ["front"]
            elif {"left", "right"} - occupied:
                facets = sorted({"left", "right"} - occupied)
            elif "rear" not in occupied:
                facets = ["rear"]
            else:
                facets = []
            out.extend(f"{u.uid} engage {e.uid} {f}" for f in facets)
        return out

    def _unit_actions(self, u: Unit) -> list[str]:
        if u.status == "reserve":
            out: list[str] = []
            dest = self.table.in_front_of_reserve(u.zone)
            if self.room(dest, u.side):
                out.extend(f"{u.uid} enter {f}" for f in ("attack", "open")
                           if self.can_form(u, f) and self.can_enter(u, dest, f))
            out.extend(f"{u.uid} shift {rz}" for rz in self.table.reserve_zones(u.side)
                       if rz != u.zone and self.room(rz, u.side))
            return out
        if u.status != "table":
            return []
        if self.engaged(u.uid):
            return [f"{u.uid} disengage"] if self.can_disengage(u) else []
        out = self._basic_actions(u, first=True) + self.engage_options(u)
        if self.daimyo[u.side] == u.zone:
            out.append(f"{u.uid} withdraw")
        rz = self.table.reserve_behind(u.zone, u.side)
        if rz is not None and self.room(rz, u.side):
            out.append(f"{u.uid} reserve")
        return out

    def daimyo_moves(self, seat: int) -> list[str]:
        z = self.daimyo[seat]
        if z is None:
            return []
        return [f"daimyo {n}" for n in self.table.neighbours8(z)
                if not self.table.impassable(n) and "woods" not in self.table.features(n)
                and not self.table.diagonal_blocked(z, n)]

    def _legal_move(self, task: MoveTask) -> list[str]:
        seat = task["seat"]
        out: list[str] = []
        for u in sorted(self.units.values(), key=lambda x: uid_key(x.uid)):
            if u.side == seat and u.uid not in self.chosen:
                out.extend(self._unit_actions(u))
        out += self.daimyo_moves(seat)
        out.append("end")
        if self.opts.get("concede", True):  # option ``concede`` (H23); saves from before it concede
            out.append("concede")
        return out

    def _act_move(self, task: MoveTask, action: str) -> None:
        seat = task["seat"]
        if action == "end":
            self._say("phase-end", f"{SIDES[seat]} ends its movement phase", seat=seat)
            self._end_move_phase()
            return
        if action == "concede":
            self._finish(1 - seat, f"An Honourable Victory! ({SIDES[seat]} concedes defeat)")
            return
        words = action.split()
        if words[0] == "daimyo":
            self._say("daimyo", f"{SIDES[seat]}'s Daimyo moves {self.daimyo[seat]} -> {words[1]}; "
                      "the movement phase ends", seat=seat, to=words[1])
            self.daimyo[seat] = words[1]
            self._end_move_phase()
            return
        u = self.u(words[0])
        self.chosen.append(u.uid)
        left = 2 if self.is_mounted(u) and not self.table.restricted(u.zone) else 1
        self.cur = {"unit": u.uid, "left": left}
        self._unit_act(u, words[1:])

    def _unit_act(self, u: Unit, words: list[str]) -> None:
        """Carry out one action of the current unit (first or second)."""
        cur = self.cur
        assert cur is not None
        verb = words[0]
        if verb in ("form", "turn", "move", "mount", "dismount", "disengage"):
            cur["left"] -= 1
        if verb == "form":
            old = u.form
            u.form = words[1]
            if len(words) > 2:
                u.facing = DIRS.index(words[2])
            self._say("form", f"{u.uid} changes formation {old} -> {u.form} facing {DIRS[u.facing]}",
                      unit=u.uid, form=u.form)
            self._continue()
        elif verb == "turn":
            u.facing = DIRS.index(words[1])
            self._say("turn", f"{u.uid} turns to face {words[1]}", unit=u.uid)
            self._continue()
        elif verb == "mount":
            u.mounted = True
            cur["left"] = 0
            self._say("mount", f"{u.uid} mounts up", unit=u.uid)
            self._continue()
        elif verb == "dismount":
            u.mounted = False
            cur["left"] = 0  # ruling H17: a dismounted unit has one action
            self._say("dismount", f"{u.uid} dismounts", unit=u.uid)
            self._continue()
        elif verb == "move":
            dest = self._move_dest(u, True)
            assert dest is not None
            if self.is_mounted(u) and self.table.restricted(dest):
                cur["left"] = 0
            self._say("move-announce", f"{u.uid} moves out of {u.zone} towards {dest}", unit=u.uid, to=dest)
            self._window("leave", u.uid, dest=dest)
        elif verb == "disengage":
            foes = self.enemies_engaged(u.uid)
            hits = sum(1 for e in foes if self.u(e).form == "attack")
            u.hits += hits
            self.contacts = [c for c in self.contacts if c[0] != u.uid and c[2] != u.uid]
            self._say("disengage", f"{u.uid} disengages from {', '.join(foes)}: {plural(hits, 'hit marker')}",
                      unit=u.uid, hits=hits)
            self._window("disengaged", u.uid)
        elif verb == "engage":
            self._announce_engage(u, words[1], words[2])
        elif verb == "withdraw":
            u.status = "routed"
            self.tally[u.side] += 1
            self._say("withdraw", f"{self.label(u)} is ordered to withdraw from the battle", unit=u.uid)
            self._unit_done()
        elif verb == "reserve":
            rz = self.table.reserve_behind(u.zone, u.side)
            self._say("move-announce", f"{u.uid} moves off the table into {rz}", unit=u.uid, to=rz)
            self._window("leave", u.uid, dest=rz)
        elif verb == "enter":
            dest = self.table.in_front_of_reserve(u.zone)
            u.status, u.zone, u.facing, u.form = "table", dest, FORWARD[u.side], words[1]
            self._say("enter", f"{u.uid} moves onto the table into {dest} in {u.form} formation",
                      unit=u.uid, to=dest)
            self._window("enter", u.uid, from_reserve=True)
        elif verb == "shift":
            self._say("shift", f"{u.uid} moves from reserve {u.zone} to {words[1]}", unit=u.uid)
            u.zone = words[1]
            self._unit_done()
        else:  # pragma: no cover - legal_actions offers nothing else
            raise AssertionError(verb)

    def _continue(self) -> None:
        """After an action: a mounted unit's second action, else the next unit."""
        cur = self.cur
        assert cur is not None
        u = self.u(cur["unit"])
        if cur["left"] > 0 and u.status == "table" and not self.engaged(u.uid) and self._legal_act2_for(u):
            self._decide(Act2Task(t="act2", seat=self.mover, unit=u.uid))
        else:
            self._unit_done()

    def _unit_done(self) -> None:
        """The unit's movement is over; the phase ends once every unit has been chosen (H16)."""
        self.cur = None
        self._decide(MoveTask(t="move", seat=self.mover))
        left = [u for u in self.units.values()
                if u.side == self.mover and u.status in ("table", "reserve") and u.uid not in self.chosen]
        if not left:
            self._say("phase-end", f"{SIDES[self.mover]} has no more units to choose: its movement phase ends",
                      seat=self.mover)
            self._end_move_phase()

    def _legal_act2_for(self, u: Unit) -> list[str]:
        return self._basic_actions(u, first=False)

    def _legal_act2(self, task: Act2Task) -> list[str]:
        u = self.u(task["unit"])
        return [*self._legal_act2_for(u), f"{u.uid} stop"]

    def _act_act2(self, task: Act2Task, action: str) -> None:
        words = action.split()
        if words[1] == "stop":
            self._unit_done()
            return
        self._unit_act(self.u(words[0]), words[1:])

    # ------------------------------------------------------------ engaging
    def engage_needs_test(self, u: Unit, target: Unit) -> bool:
        """The two exceptions: in command, or a friendly unit already engaged with the target."""
        if self.in_command(u):
            return False
        return not any(self.u(e).side == u.side for e in self.enemies_engaged(target.uid))

    def _announce_engage(self, u: Unit, tid: str, facet: str) -> None:
        t = self.u(tid)
        self._say("engage-announce", f"{u.uid} attempts to engage {tid} ({facet})", unit=u.uid, target=tid)
        if self.engage_needs_test(u, t):
            q = self.quality(u)
            need = ENGAGE_NEED_QUALITY.get(q) or ENGAGE_NEED.get(u.form, 1)
            d = self._d6()
            ok = d <= need
            self._say("engage-test", f"{u.uid} tests to engage: {d} (needs {need} or less): "
                      + ("passes" if ok else "fails; it vacillates"), unit=u.uid, faces=[d], need=need, ok=ok)
            if not ok:
                self._unit_done()
                return
        self._window("engage", u.uid, target=tid, facet=facet)

    def _engage(self, e: Unit, x: Unit, facet: str) -> None:
        """Place ``e``'s front against ``x``'s ``facet`` (turning ``e`` if the priorities need it)."""
        fd = (x.facing + FACETS.index(facet)) % 4
        e.facing = opposite(fd)
        self.contacts.append((e.uid, "front", x.uid, facet))
        self._say("engage", f"{e.uid} engages {x.uid} on its {facet}", unit=e.uid, target=x.uid, facet=facet)

    def _front_to_front(self, r: Unit, e: Unit, why: str) -> None:
        """Counter-charge or intercept: ``r`` engages ``e`` front to front; disorder hits."""
        need = opposite(e.facing)
        turned = r.facing != need
        r.facing = need
        r.hits += 1 + (1 if turned else 0)
        self.contacts.append((r.uid, "front", e.uid, "front"))
        self._say("engage", f"{r.uid} {why} {e.uid} front to front: {plural(1 + int(turned), 'hit marker')}"
                  + (" (it turned)" if turned else ""), unit=r.uid, target=e.uid, facet="front")
