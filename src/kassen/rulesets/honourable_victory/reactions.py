"""Reactions (001:716-866): the other side's windows when a unit engages, leaves or enters a
zone or disengages: counter-charge, recoil, defensive fire, hasty defence, evade, intercept."""

from __future__ import annotations

from kassen.rulesets.honourable_victory.common import Unit, uid_key
from kassen.rulesets.honourable_victory.movement import MovementRules
from kassen.rulesets.honourable_victory.table import DIRS
from kassen.rulesets.honourable_victory.tasks import ReactTask, RecoiledTask


class ReactionRules(MovementRules):
    """Reaction windows and their outcomes."""

    def _can_react(self, r: Unit, zone: str) -> bool:
        return (r.side != self.mover and r.status == "table" and r.zone == zone and not r.reacted
                and not self.engaged(r.uid))

    def can_recoil(self, x: Unit) -> bool:
        rz = self.table.closest_reserve(x.zone, x.side)
        return rz is not None and self.room(rz, x.side)

    def reaction_options(self, p: ReactTask) -> tuple[list[str], bool]:
        """The reactions open to the reacting side, and whether one is compulsory."""
        e = self.u(p["unit"])
        zone = e.zone
        out: list[str] = []
        target = p["target"]
        x = self.u(target) if target else None
        for m in sorted(self.units.values(), key=lambda v: uid_key(v.uid)):
            if m is not x and self._can_react(m, zone) and self.is_mounted(m) and not self.table.restricted(zone):
                out.append(f"{m.uid} intercept")
        compulsory = False
        if p["trig"] == "engage" and x is not None and self._can_react(x, zone):
            if self.is_mounted(x):
                compulsory = True
                out.append(f"{x.uid} counter")
                if self.can_recoil(x):
                    out.append(f"{x.uid} recoil")
            else:
                if self.is_foot(e) and self.can_defensive_fire(x):
                    out.append(f"{x.uid} fire")
                if x.form != "defensive" and self.can_form(x, "defensive"):
                    out.append(f"{x.uid} defend")
                if x.form == "open" and self.is_foot(e):
                    out.append(f"{x.uid} evade")
        return out, compulsory

    def _window(self, trig: str, uid: str, target: str | None = None, facet: str | None = None,
                dest: str | None = None, from_reserve: bool = False) -> None:
        p = ReactTask(t="react", seat=1 - self.mover, trig=trig, unit=uid, target=target, facet=facet, dest=dest,
                      from_reserve=from_reserve)
        opts, _ = self.reaction_options(p)
        if opts:
            self._decide(p)
        else:
            self._close_window(p)

    def _legal_react(self, task: ReactTask) -> list[str]:
        opts, compulsory = self.reaction_options(task)
        return opts if compulsory else [*opts, "none"]

    def _close_window(self, p: ReactTask) -> None:
        """No (more) reactions: the announced movement goes ahead."""
        e = self.u(p["unit"])
        trig = p["trig"]
        if trig == "engage":
            target, facet = p["target"], p["facet"]
            assert target is not None and facet is not None
            self._engage(e, self.u(target), facet)
            self._unit_done()
        elif trig == "leave":
            dest = p["dest"]
            assert dest is not None
            if self.table.is_reserve(dest):
                e.status, e.zone = "reserve", dest
                self._say("move", f"{e.uid} is now in reserve zone {dest}", unit=e.uid, to=dest)
                self._unit_done()
            else:
                e.zone = dest
                self._say("move", f"{e.uid} moves into {dest}", unit=e.uid, to=dest)
                self._window("enter", e.uid)
        elif trig == "enter" and p.get("from_reserve"):
            self._unit_done()
        else:
            self._continue()

    def _act_react(self, p: ReactTask, action: str) -> None:
        if action == "none":
            self._close_window(p)
            return
        rid, verb = action.split()
        r, e = self.u(rid), self.u(p["unit"])
        r.reacted = True
        if verb == "intercept":
            self._front_to_front(r, e, "intercepts")
            if self.is_foot(e):
                e.hits += 3
                self._say("impact", f"{e.uid} suffers a heavy impact: 3 hit markers", unit=e.uid, hits=3)
            self._unit_done()
            return
        x = r  # the unit being engaged: the engagement was announced on one of its facets
        facet = p["facet"]
        assert facet is not None
        if verb == "counter":
            self._front_to_front(x, e, "counter-charges")
            self._unit_done()
        elif verb == "recoil":
            rz = self.table.closest_reserve(x.zone, x.side)
            assert rz is not None
            x.status, x.zone = "reserve", rz
            self._say("recoil", f"{x.uid} recoils into reserve zone {rz}", unit=x.uid, to=rz)
            if self.is_foot(e):
                self._say("stop", f"{e.uid} remains unengaged and does no more", unit=e.uid)
                self._unit_done()
            else:
                self._decide(RecoiledTask(t="recoiled", seat=self.mover, unit=e.uid))
        elif verb == "fire":
            hits = self._shoot(x, e, "issues defensive fire at")
            if hits >= 2:
                self._say("flinch", f"{e.uid} flinches: both units remain unengaged", unit=e.uid)
                self._unit_done()
            else:
                if hits == 0:
                    x.hits += 1
                    self._say("impact", f"{x.uid} suffers a light impact: 1 hit marker", unit=x.uid, hits=1)
                self._engage(e, x, facet)
                self._unit_done()
        elif verb == "defend":
            x.form = "defensive"
            x.hits += 1
            self._say("form", f"{x.uid} hastily forms a defensive formation: 1 hit marker", unit=x.uid,
                      form="defensive")
            if self.is_foot(e):
                self._engage(e, x, facet)
            elif x.weapon == "long-spear":
                e.hits += 1
                self._say("pull-up", f"{e.uid} pulls up short before the long spears: 1 hit marker",
                          unit=e.uid, hits=1)
            else:
                self._engage(e, x, facet)
                x.hits += 3
                self._say("impact", f"{e.uid} charges home: {x.uid} suffers a heavy impact, 3 hit markers",
                          unit=x.uid, hits=3)
            self._unit_done()
        elif verb == "evade":
            self._say("evade", f"{x.uid} evades {e.uid}: both remain unengaged", unit=x.uid)
            self._unit_done()
        else:  # pragma: no cover
            raise AssertionError(verb)

    def _legal_recoiled(self, task: RecoiledTask) -> list[str]:
        e = self.u(task["unit"])
        return [*self.engage_options(e), *(f"{e.uid} rally {d}" for d in DIRS)]

    def _act_recoiled(self, task: RecoiledTask, action: str) -> None:
        words = action.split()
        e = self.u(words[0])
        if words[1] == "rally":
            e.facing = DIRS.index(words[2])
            self._say("rally", f"{e.uid} rallies, facing {words[2]}", unit=e.uid)
            self._unit_done()
        else:
            self._announce_engage(e, words[2], words[3])
