# mypy: disable-error-code="misc"
# (the methods type ``self`` as the whole CCState, which mypy allows only for supertypes: "misc")
"""Flags and Retreats (rulebook: Bolster Morale, Retreats, Retreat & Loss of Honor): the flags a
combat scores, how many the unit may ignore and the owner's choice of how many, the castle's hits
in their place, retreat paths, the blocks a blocked retreat costs and the Honor & Fortune a retreat
costs.

A rule mixin of ``CCState`` (state.py); the data it works on: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import trait

from kassen.engine.events import plural
from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai import dragons
from kassen.rulesets.cc_samurai.board import CANON, Unit
from kassen.rulesets.cc_samurai.common import LEADER_NAME, CCStateData, as_json
from kassen.rulesets.cc_samurai.tasks import CombatTask, RetreatTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


@trait
class RetreatRules(CCStateData):
    def flag_ignores(self: CCState, h: Hex, attacker: Unit | None) -> int:
        """Bolster Morale: how many flags the unit at ``h`` may ignore (at most 2)."""
        return min(len(self.flag_ignore_reasons(h, attacker)), 2)

    def flag_ignore_reasons(self: CCState, h: Hex, attacker: Unit | None) -> list[str]:
        """Why the unit at ``h`` may ignore flags: one reason per flag (Bolster Morale, 000:1039-1052)."""
        u = self.units[h]
        ut = self.ut(u)
        out: list[str] = []
        support = 0
        for nb in self.b.neighbours(h):
            fu = self.units.get(nb)
            if fu is not None and fu.side == u.side:
                support += 1
            elif fu is None and nb in self.leaders and self.leaders[nb].side == u.side:
                support += 1
        if support >= 2:
            out.append(f"supported by {support} adjacent friendly units or Leaders")
        out.extend([f"{ut.name} ignore a flag"] * ut.ignores_flag)
        if self.attached_leader(h) is not None:
            out.append("a Leader is attached")
        ter = self.ter(h)
        if ter.ignore_flag_any:
            out.append(f"it holds a {ter.name.lower()}")
        if not ut.cavalry and (
            ter.ignore_flag_inf == "any"
            or (ter.ignore_flag_inf == "cavalry" and attacker is not None and self.ut(attacker).cavalry)
        ):
            out.append(f"infantry in a {ter.name.lower()}" + (" against cavalry" if ter.ignore_flag_inf == "cavalry" else ""))
        return out

    def _combat_flags_auto(self: CCState, cx: CombatTask) -> bool:
        dh = self.b.parse(cx["tgt"])
        u = self.units.get(dh)
        if u is None:
            cx["step"] = "post"
            return True
        flags = cx["flags"]
        if self.ut(u).bodyguard and self.attached_leader(dh) is not None:
            self.say("flags", f"The bodyguards ignore {flags} flag{'s' if flags > 1 else ''}: they must ignore all flags")
            cx["step"] = "post"
            return True
        attacker = self.units.get(self.b.parse(cx["att"]))
        rule = dragons.flag_rule(self, cx, u.side, u.uid)
        if rule == "none":
            max_ignore = 0
        elif rule == "all":
            max_ignore = flags
        else:
            reasons = self.flag_ignore_reasons(dh, attacker)
            max_ignore = min(flags, len(reasons), 2)
            cx["ignore_why"] = reasons[:2]
        if rule == "all":
            cx["ignore_why"] = ["a Dragon card lets it ignore every flag"]
        if max_ignore == 0:
            self._apply_flags(cx, flags, 0)
            return True
        cx["max_ignore"] = max_ignore
        cx["seat"] = u.side
        return False

    def _flag_choices(self: CCState, cx: CombatTask) -> list[str]:
        """Bolster Morale: the owner chooses how many of the flags it may ignore it ignores."""
        return [f"ignore {k}" for k in range(cx["max_ignore"] + 1)]

    def _choose_flags(self: CCState, cx: CombatTask, action: str) -> None:
        k = int(action.split()[1])
        self._apply_flags(cx, cx["flags"] - k, k)

    def _apply_flags(self: CCState, cx: CombatTask, remaining: int, ignored: int) -> None:
        dh = self.b.parse(cx["tgt"])
        u = self.units[dh]
        cx["step"] = "post"
        cx["seat"] = 1 - u.side
        if ignored:
            why = cx.get("ignore_why") or []
            self.say("flags", f"{self.unit_label(u)} ignores {plural(ignored, 'flag')}"
                     + (f" ({'; '.join(why)})" if why else ""))
        if remaining <= 0:
            return
        if self.ter(dh).castle:
            self.say("castle", f"{self.unit_label(u)} holds the castle and takes a hit for each of {plural(remaining, 'flag')}")
            self.hit_unit(dh, remaining, 1 - u.side, "flags it could not ignore in a castle")
            return
        hexes = remaining * self.ut(u).hexes_per_flag
        self.stack.append(as_json({
            "t": "retreat", "seat": u.side, "uid": u.uid, "at": self.name(dh), "left": hexes, "moved": 0,
            "leader": dh in self.leaders, "by": 1 - u.side,
        }))
        self.say("retreat_due", f"{self.unit_label(u)} must retreat {hexes} hex{'es' if hexes > 1 else ''}")

    def retreat_steps(self: CCState, h: Hex, u: Unit) -> list[Hex]:
        """Retreats: the hexes one retreat move can reach (toward the own baseline)."""
        r = h[1] + self.back_dir(u.side)
        out = []
        for dx in (-1, 1):
            n = CANON.get((h[0] + dx, r))
            if n is None or self.ter(n).impassable or n in self.units:
                continue
            if self.b.is_half(n) and (h in self.leaders or not self.t.rules.retreat_onto_half_hexes):
                continue  # the attached Leader may never enter a half-hex; Zvezda units neither (R40)
            ld = self.leaders.get(n)
            if ld is not None:
                if ld.side != u.side or h in self.leaders:
                    continue
                if self.ut(u).cavalry and ld.kind != "mounted":
                    continue
            out.append(n)
        return out

    def _retreat_loss(self: CCState, h: Hex, u: Unit, left: int) -> int:
        """Fewest blocks lost completing ``left`` retreat hexes from ``h``."""
        if left == 0:
            return 0
        steps = self.retreat_steps(h, u)
        if not steps:
            return left
        best = left
        for n in steps:
            if n in self.leaders:
                return 0
            best = min(best, self._retreat_loss_from(n, h, u, left - 1))
        return best

    def _retreat_loss_from(self: CCState, n: Hex, frm: Hex, u: Unit, left: int) -> int:
        # the unit is considered moved from ``frm`` to ``n``
        moved = self.units.pop(frm)
        ld = self.leaders.pop(frm, None)
        self.units[n] = moved
        if ld is not None:
            self.leaders[n] = ld
        try:
            return self._retreat_loss(n, u, left)
        finally:
            del self.units[n]
            self.units[frm] = moved
            if ld is not None:
                del self.leaders[n]
                self.leaders[frm] = ld

    def _retreat_options(self: CCState, task: RetreatTask) -> list[Hex]:
        self.own_pieces()  # _retreat_loss_from moves the unit to and fro (which reorders the dict)
        h = self.b.parse(task["at"])
        u = self.units[h]
        steps = self.retreat_steps(h, u)
        if not steps:
            return []
        scored = []
        for n in steps:
            loss = 0 if n in self.leaders else self._retreat_loss_from(n, h, u, task["left"] - 1)
            scored.append((loss, n))
        best = min(s for s, _ in scored)
        return [n for s, n in scored if s == best]

    def _legal_retreat(self: CCState, task: RetreatTask) -> list[str]:
        return [f"retreat {self.name(n)}" for n in sorted(self._retreat_options(task))]

    def _auto_retreat(self: CCState, task: RetreatTask) -> bool:
        h = self.b.parse(task["at"])
        u = self.units.get(h)
        if u is None or u.uid != task["uid"]:
            self.stack.pop()
            return True
        if task["left"] <= 0:
            self._finish_retreat(task, h, u)
            return True
        opts = self._retreat_options(task)
        if not opts:
            why = "it is at its baseline" if h[1] == self.baseline_row(u.side) else "its retreat path is blocked"
            self.say("retreat_blocked", f"{self.unit_label(u)} cannot retreat {task['left']} more hex(es): {why}")
            gone = self.hit_unit(h, task["left"], task["by"], "retreat could not be completed")
            task["left"] = 0
            if gone:
                self.stack.pop()
                if task["moved"]:
                    self._pay_retreat(task, h, u)
            return True
        if len(opts) == 1:
            self._retreat_step(task, h, u, opts[0])
            return True
        return False

    def _act_retreat(self: CCState, task: RetreatTask, action: str) -> None:
        h = self.b.parse(task["at"])
        self._retreat_step(task, h, self.units[h], self.b.parse(action.split()[1]))

    def _retreat_step(self: CCState, task: RetreatTask, h: Hex, u: Unit, n: Hex) -> None:
        self.own_pieces()
        del self.units[h]
        self.units[n] = u
        ld = self.leaders.get(h)
        if ld is not None and ld.side == u.side:
            del self.leaders[h]
            self.leaders[n] = ld
        task["at"] = self.name(n)
        task["moved"] += 1
        task["left"] -= 1
        joined = ""
        if ld is None and n in self.leaders:
            joined = f" and stops to join the {LEADER_NAME[self.leaders[n].kind]}"
            task["left"] = 0
        self.say("retreat", f"{self.unit_label(u)} retreats {self.name(h)} to {self.name(n)}{joined}",
                 frm=self.name(h), to=self.name(n))

    def _finish_retreat(self: CCState, task: RetreatTask, h: Hex, u: Unit) -> None:
        self.stack.pop()
        if task["moved"]:
            self._pay_retreat(task, h, u)

    def _pay_retreat(self: CCState, task: RetreatTask, h: Hex, u: Unit) -> None:
        """Retreat & Loss of Honor, then a Lack of Honor roll if the reserve falls short."""
        ut = self.ut(u)
        moved = task["moved"]
        if ut.retreat_honor_flat:
            cost = ut.retreat_honor_flat + (moved if task["leader"] else 0)
        else:
            cost = moved * (ut.retreat_honor + (1 if task["leader"] else 0))
        short = self.lose_honor(u.side, cost, f"{ut.name} retreated {moved} hex{'es' if moved > 1 else ''}")
        if short:
            self._push_loh(u.side, short, h, u.uid, None, symbol=ut.symbol)
