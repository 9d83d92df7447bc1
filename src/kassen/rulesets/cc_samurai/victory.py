# mypy: disable-error-code="misc"
# (the methods type ``self`` as the whole CCState, which mypy allows only for supertypes: "misc")
"""End Game & Victory: Victory Banners, blocks lost, scenario objectives and the command tents.

A rule mixin of ``CCState`` (state.py); the data it works on: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import trait

from kassen.engine.events import plural
from kassen.engine.hexgrid import Hex
from kassen.engine.protocol import Result
from kassen.rulesets.cc_samurai.common import CCStateData

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


@trait
class VictoryRules(CCStateData):
    def _drop_tent(self: CCState, owner: int, th: Hex) -> None:
        """A command tent leaves the board (copy-on-write: clones share terrain and tents)."""
        self.tents = dict(self.tents)
        del self.tents[owner]
        self.terrain = dict(self.terrain)
        self.terrain.pop(th, None)
        self._terc = None
        self._terl = None
        self._mv = {}

    def award_banner(self: CCState, side: int, n: int, why: str, objective: bool = False) -> None:
        if n <= 0:
            return
        self.own_score()
        self.banners[side] += n
        if objective:
            self.objectives[side] += n
        self.say("banner", f"{self.side_name(side)} gains {n} Victory Banner{'s' if n > 1 else ''}: {why} "
                 f"({self.banners[side]}/{self.victory})", side=side, amount=n)
        if self.banners[side] >= self.victory and self._result is None:
            self._result = Result(side, "banners", (1.0, 0.0) if side == 0 else (0.0, 1.0))
            self.say("victory", f"{self.side_name(side)} wins the battle with {self.banners[side]} Victory Banners",
                     winner=side)

    def hit_unit(self: CCState, h: Hex, n: int, by: int, why: str) -> bool:
        """Remove ``n`` blocks (no more than it has); True if the unit is eliminated."""
        u = self.units[h]
        n = min(n, u.blocks)
        if n <= 0:
            return False
        left = u.blocks - n
        label = self.unit_label(u)
        self.own_pieces()
        if left > 0:
            self.units[h] = u._replace(blocks=left)
            self.say("blocks", f"{label} at {self.name(h)} loses {n} block{'s' if n > 1 else ''} ({why}), {left} left",
                     hex=self.name(h), lost=n, left=left)
            return False
        del self.units[h]
        self.own_logs()
        self.removed.append({"side": u.side, "piece": u.uid, "cause": "killed", "type": u.type})
        self.say("eliminated", f"{label} at {self.name(h)} is eliminated ({why})", hex=self.name(h), unit=u.uid)
        if not self.ut(u).bodyguard:
            self.award_banner(by, 1, f"{self.ut(u).name} eliminated")
        return True

    def _empty_tents(self: CCState) -> None:
        """Zvezda (R42): a command tent is always occupied; left empty, the enemy removes it at once."""
        for owner, th in sorted(self.tents.items()):
            if th in self.units or th in self.leaders:
                continue
            self._drop_tent(owner, th)
            self.say("tent", f"The {self.side_name(owner)} command tent at {self.name(th)} stands empty: "
                     f"{self.side_name(1 - owner)} removes it", hex=self.name(th))
            self._lose_random_card(owner, "the command tent was taken")
            self.award_banner(1 - owner, self.tent_banners, "enemy command tent taken", objective=True)
            if self._result is not None:
                return

    def _check_objectives(self: CCState) -> None:
        """Scenario objectives, checked at the start of every turn (docs/rulings.md R29)."""
        for i, obj in enumerate(self.objective_defs):
            present = {self.units[h].side for h in obj["hexes"] if h in self.units}
            holder = self.obj_held[i]
            label = obj["name"] or "/".join(self.name(h) for h in obj["hexes"])
            if obj["kind"] == "permanent" and holder is not None:
                continue
            if holder is not None and (holder not in present or len(present) > 1):
                self.own_score()
                self.obj_held[i] = None
                self.banners[holder] -= obj["banners"]
                self.objectives[holder] -= obj["banners"]
                self.say("objective_lost", f"{self.side_name(holder)} no longer holds {label} and loses "
                         f"{plural(obj['banners'], 'Victory Banner')} ({self.banners[holder]}/{self.victory})",
                         side=holder, objective=i)
                holder = None
            if holder is None and len(present) == 1:
                side = next(iter(present))
                if obj["side"] in (-1, side):
                    self.own_score()
                    self.obj_held[i] = side
                    kind = "permanent" if obj["kind"] == "permanent" else "temporary"
                    self.award_banner(side, obj["banners"], f"holds {label} ({kind})", objective=True)
                    if self._result is not None:
                        return
