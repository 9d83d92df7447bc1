# mypy: disable-error-code="misc"
# (the methods type ``self`` as the whole CCState, which mypy allows only for supertypes: "misc")
"""Leaders: attached and lone Leaders, inspiration, Leader casualty checks, lone Leader
retreats, Leader Seppuku.

A rule mixin of ``CCState`` (state.py); the data it works on: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import trait

from kassen.engine.dice import Face
from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai.board import CANON, Leader, Unit
from kassen.rulesets.cc_samurai.common import LEADER_NAME, CCStateData, as_json
from kassen.rulesets.cc_samurai.tasks import LeaderRetreatTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


@trait
class LeaderRules(CCStateData):
    def lone_leader(self: CCState, h: Hex) -> Leader | None:
        ld = self.leaders.get(h)
        return ld if ld is not None and h not in self.units else None

    def attached_leader(self: CCState, h: Hex) -> Leader | None:
        return self.leaders.get(h) if h in self.units else None

    def remove_leader(self: CCState, h: Hex, cause: str, by: int | None) -> None:
        self.own_pieces()
        self.own_logs()
        ld = self.leaders.pop(h)
        self.removed.append({"side": ld.side, "piece": ld.lid, "cause": cause, "type": ld.kind})
        if cause == "killed" and by is not None:
            self.say("leader_killed", f"{self.side_name(ld.side)} {LEADER_NAME[ld.kind]} at {self.name(h)} is eliminated",
                     hex=self.name(h), leader=ld.lid)
            if ld.kind == "commander":
                bg = self.units.get(h)
                if bg is not None and self.ut(bg).bodyguard:
                    del self.units[h]
                    self.removed.append({"side": bg.side, "piece": bg.uid, "cause": "surrender", "type": bg.type})
                    self.say("surrender", f"The bodyguards at {self.name(h)} surrender", hex=self.name(h))
            self.award_banner(by, 1, f"{LEADER_NAME[ld.kind]} eliminated")

    def can_inspire(self: CCState, h: Hex, u: Unit) -> bool:
        """Leader Inspired Close Combat: who may add a die to the unit at ``h``."""
        if self.ter(h).no_inspiration:
            return False
        ut = self.ut(u)
        ld = self.leaders.get(h)
        if ld is not None and ld.side == u.side:
            if ld.kind == "mounted" or (ld.kind == "foot" and not ut.cavalry) or (ld.kind == "commander" and ut.bodyguard):
                return True
        for n in self.b.neighbours(h):
            other = self.leaders.get(n)
            if other is None or other.side != u.side:
                continue
            if other.kind == "mounted":
                return True
            if other.kind == "commander" and n in self.units and self.ut(self.units[n]).bodyguard:
                return True
        return False

    def _casualty_check(self: CCState, h: Hex, ld: Leader, kind: str, eliminated: bool, by: int) -> None:
        """Leader Casualty Check."""
        if ld.kind == "commander":
            n, need = 2, 2
        elif eliminated:
            n, need = 1, 1
        else:
            n, need = (2, 2) if kind == "ranged" else (1, 1)
        faces = self.roll(n)
        swords = faces.count(Face.SWORDS)
        self.say("casualty_check", f"Leader Casualty Check on the {self.side_name(ld.side)} {LEADER_NAME[ld.kind]} at "
                 f"{self.name(h)}: {', '.join(f.label for f in faces)}", faces=[f.value for f in faces])
        if swords >= need:
            self.remove_leader(h, "killed", by)
        elif ld.kind == "commander" and h not in self.units:
            # all bodyguards gone: he becomes a foot Leader and must retreat or commit seppuku
            self.own_pieces()
            self.leaders[h] = ld._replace(kind="foot")
            self.say("commander", f"The {self.side_name(ld.side)} Army Commander has lost his bodyguards and now acts as a foot Leader")

    def leader_retreats(self: CCState, h: Hex) -> list[Hex]:
        """Leader Retreat: end hexes 1-3 retreat moves back, through friends, never into enemies."""
        ld = self.leaders[h]
        back = self.back_dir(ld.side)
        out: set[Hex] = set()
        frontier = [h]
        for _ in range(3):
            nxt = []
            for cur in frontier:
                for dx in (-1, 1):
                    n = CANON.get((cur[0] + dx, cur[1] + back))
                    if n is None or self.b.is_half(n) or self.ter(n).impassable:
                        continue
                    u = self.units.get(n)
                    other = self.leaders.get(n)
                    if (u is not None and u.side != ld.side) or (other is not None and other.side != ld.side):
                        continue
                    nxt.append(n)
                    if other is not None:
                        continue
                    if u is not None:
                        ut = self.ut(u)
                        if ut.bodyguard or (ut.cavalry and ld.kind != "mounted"):
                            continue
                    out.add(n)
            frontier = nxt
        return sorted(out)

    def _push_leader_retreat(self: CCState, h: Hex) -> None:
        ld = self.leaders[h]
        self.stack.append(as_json({"t": "lretreat", "seat": ld.side, "lid": ld.lid, "at": self.name(h)}))

    def leader_can_retreat_off(self: CCState, h: Hex) -> bool:
        """Zvezda (R41): a lone Leader may retreat off his own baseline within his 3 retreat hexes;
        the step off the board from a baseline hex counts as one hex."""
        if not self.t.rules.leader_retreats_off_baseline:
            return False
        ld = self.leaders[h]
        base, back = self.baseline_row(ld.side), self.back_dir(ld.side)
        frontier = {h}
        for _ in range(3):  # the last of the 3 retreat hexes may be the step off the board
            if any(cur[1] == base for cur in frontier):
                return True
            nxt: set[Hex] = set()
            for cur in frontier:
                for dx in (-1, 1):
                    n = CANON.get((cur[0] + dx, cur[1] + back))
                    if n is None or self.b.is_half(n) or self.ter(n).impassable:
                        continue
                    u, other = self.units.get(n), self.leaders.get(n)
                    if (u is not None and u.side != ld.side) or (other is not None and other.side != ld.side):
                        continue
                    nxt.add(n)
            frontier = nxt
        return False

    def _lretreat_forced(self: CCState, task: LeaderRetreatTask) -> str | None:
        h = self.b.parse(task["at"])
        if self.leader_can_retreat_off(h):
            return None
        if h[1] == self.baseline_row(task["seat"]):
            return "he stands on his own baseline"
        if not self.leader_retreats(h):
            return "he cannot retreat a single hex"
        return None

    def _legal_lretreat(self: CCState, task: LeaderRetreatTask) -> list[str]:
        h = self.b.parse(task["at"])
        if h[1] == self.baseline_row(task["seat"]):
            ends: list[Hex] = []  # on his baseline there is no hex further back
        else:
            ends = self.leader_retreats(h)
        off = ["retreat off"] if self.leader_can_retreat_off(h) else []
        return [*(f"retreat {self.name(n)}" for n in ends), *off, "seppuku"]

    def _auto_lretreat(self: CCState, task: LeaderRetreatTask) -> bool:
        h = self.b.parse(task["at"])
        ld = self.leaders.get(h)
        if ld is None or ld.lid != task["lid"] or h in self.units:
            self.stack.pop()
            return True
        why = self._lretreat_forced(task)
        if why is None:
            return False
        self.say("seppuku_forced", f"The {self.side_name(ld.side)} {LEADER_NAME[ld.kind]} at {self.name(h)} must commit seppuku: {why}")
        self.stack.pop()
        self._seppuku(h)
        return True

    def _act_lretreat(self: CCState, task: LeaderRetreatTask, action: str) -> None:
        h = self.b.parse(task["at"])
        self.stack.pop()
        if action == "seppuku":
            self._seppuku(h)
            return
        self.own_pieces()
        if action == "retreat off":
            self.own_logs()
            ld = self.leaders.pop(h)
            self.removed.append({"side": ld.side, "piece": ld.lid, "cause": "off", "type": ld.kind})
            self.say("leader_retreat", f"The {self.side_name(ld.side)} {LEADER_NAME[ld.kind]} retreats off the battlefield "
                     f"from {self.name(h)} and saves his standard", frm=self.name(h), to="off")
            short = self.lose_honor(ld.side, 3, "a lone Leader retreated")
            if short:
                self._push_loh(ld.side, short, h, None, ld.lid)
            return
        n = self.b.parse(action.split()[1])
        ld = self.leaders.pop(h)
        self.leaders[n] = ld
        joined = f" and joins the {self.ut(self.units[n]).name}" if n in self.units else ""
        self.say("leader_retreat", f"The {self.side_name(ld.side)} {LEADER_NAME[ld.kind]} retreats {self.name(h)} to {self.name(n)}{joined}",
                 frm=self.name(h), to=self.name(n))
        short = self.lose_honor(ld.side, 3, "a lone Leader retreated")
        if short:
            self._push_loh(ld.side, short, n, None, ld.lid)

    def _seppuku(self: CCState, h: Hex) -> None:
        """Leader Seppuku: +5 tokens, a Command card lost by the opponent's pick, a Dragon card for him."""
        self.own_pieces()
        self.own_logs()
        self.own_score()
        ld = self.leaders.pop(h)
        side = ld.side
        self.removed.append({"side": side, "piece": ld.lid, "cause": "seppuku", "type": ld.kind})
        self.say("seppuku", f"The {self.side_name(side)} {LEADER_NAME[ld.kind]} at {self.name(h)} commits seppuku", hex=self.name(h))
        self.gain_honor(side, 5, "seppuku")
        self.command[side] = max(1, self.command[side] - 1)
        self.draw_dragon(1 - side)
        if self.hands[side]:
            perm = self.own_rng().shuffled(self.hands[side])
            self.stack.append(as_json({"t": "pick", "seat": 1 - side, "victim": side, "perm": perm}))
            self.say("pick_due", f"{self.side_name(1 - side)} picks one of {self.side_name(side)}'s "
                     f"{len(perm)} face-down Command cards", random=True)
