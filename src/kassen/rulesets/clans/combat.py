"""Combat Resolution (002:200-257): the order of the Battlefields, Begin Combat (revealing, the
Archer, the Samurai), Determine the Winner (Total Strength, ties, the tiles that change it)."""

from __future__ import annotations

from kassen.rulesets.clans.common import (
    FORTRESS_CARDS,
    JSON,
    PALACE_PENALTY,
    SAMURAI_VICTIMS,
    TEMPLE_MARGIN,
    card_clan,
    card_type,
)
from kassen.rulesets.clans.scoring import ScoringRules
from kassen.rulesets.clans.tasks import ResolveTask


class CombatRules(ScoringRules):
    """Resolving the Battlefields one by one."""

    def _unresolved(self) -> list[int]:
        return [i for i, o in enumerate(self.outcome) if o is None or not o.get("done")]

    def _start_combat(self) -> None:
        self._enter(ResolveTask(t="resolve"))
        self.turn = 0
        self.emit("combat", {}, "Army Deployment is over: Combat Resolution begins")

    def _run(self) -> None:
        """Automatic steps until a player must decide (C12: the Supply Camp first, and a
        last Battlefield needs no choice)."""
        while self.stack and self.stack[-1]["t"] == "resolve":
            todo = self._unresolved()
            if not todo:
                self._score()
                return
            camp = [i for i in todo if self.tiles[i] == "supply-camp"]
            if camp:
                self._combat(camp[0])
            elif len(todo) == 1:
                self._combat(todo[0])
            else:
                return

    def _combat(self, i: int) -> None:
        """Begin Combat on Battlefield ``i`` (002:212-225)."""
        a, b = self.sides[i]
        info: JSON = {"done": False}
        if self.tiles[i] == "port":
            # before Secret Units are revealed: +1 per face-up card (002:462-468)
            info["port"] = [sum(1 for e in self.stacks[i][s] if e[1]) for s in (0, 1)]
        self.outcome[i] = info
        self.emit("battle", {"tile": self.tiles[i]},
                  f"Combat on the {self.tile_name(i)} ({self.name(a)} against {self.name(b)})")
        revealed = []
        for s in (0, 1):
            st = self.own_side(i, s)
            for k, (cid, up, _) in enumerate(st):
                if not up:
                    revealed.append(cid)
                st[k] = (cid, True, self.all_mask)
        if revealed:
            self.emit("reveal-all", {"tile": self.tiles[i], "cards": revealed},
                      "Revealed: " + ", ".join(self.card_name(c) for c in revealed))
        # the Archer acts before the Samurai (002:383-392)
        # hit[s]: the cards eliminated on side s, by the other side's Archer, then Samurai
        hit = [self._find(i, s, {"samurai"}) if self._find(i, 1 - s, {"archer"}) else [] for s in (0, 1)]
        self._eliminate(i, hit, "eliminated by an Archer")
        hit = [self._find(i, s, SAMURAI_VICTIMS) if self._find(i, 1 - s, {"samurai"}) else [] for s in (0, 1)]
        self._eliminate(i, hit, "eliminated by a Samurai")
        if self.tiles[i] == "sanctuary":
            info["sanctuary"] = [None, None]
            self._sanctuary_step(i)
            return
        self._finish_combat(i)

    def _find(self, i: int, side: int, slugs: set[str] | frozenset[str]) -> list[int]:
        """Positions on ``side`` of ``i`` of the side owner's cards of the given types."""
        owner = self.clans[self.sides[i][side]]
        return [k for k, e in enumerate(self.stacks[i][side])
                if card_type(e[0]) in slugs and card_clan(e[0]) == owner]

    def _eliminate(self, i: int, hit: list[list[int]], how: str) -> None:
        for s in (0, 1):
            if not hit[s]:
                continue
            st = self.own_side(i, s)
            gone = [st[k][0] for k in hit[s]]
            for k in sorted(hit[s], reverse=True):
                del st[k]
            for cid in gone:
                self.removed.append((cid, self.all_mask, how, self.sides[i][s]))
            self.emit("eliminate", {"tile": self.tiles[i], "cards": gone, "how": how},
                      f"On the {self.tile_name(i)}: " + ", ".join(self.card_name(c) for c in gone) + f" {how}")

    def totals(self, i: int) -> list[int]:
        """Total Strength of both sides of ``i`` as the cards now stand (002:227-232)."""
        info = self.outcome[i] or {}
        port = info.get("port", [0, 0])
        tot = []
        for s in (0, 1):
            st = self.stacks[i][s]
            tot.append(sum(self.card_strength(i, st, k) for k in range(len(st))) + port[s] + self.bonus[i][s])
        if self.tiles[i] == "palace":
            c0, c1 = len(self.stacks[i][0]), len(self.stacks[i][1])
            if c0 != c1:
                tot[0 if c0 > c1 else 1] -= PALACE_PENALTY
        return tot

    def _winner_side(self, i: int, tot: list[int]) -> tuple[int | None, str]:
        """The conquering side of ``i`` and why (002:234-239, 484-501; C15, C16)."""
        counts = [len(self.stacks[i][0]), len(self.stacks[i][1])]
        if tot[0] != tot[1]:
            side = 0 if tot[0] > tot[1] else 1
            why = "higher Total Strength"
        elif counts[0] != counts[1]:
            side = 0 if counts[0] > counts[1] else 1
            why = "equal Strength, more cards"
        else:
            return None, "equal Strength and equal cards"
        if counts[side] == 0:
            return None, "an army without cards cannot conquer"
        tile = self.tiles[i]
        if tile == "golden-temple" and abs(tot[0] - tot[1]) < TEMPLE_MARGIN:
            return None, f"Golden Temple: the margin is below {TEMPLE_MARGIN}"
        if tile == "fortress" and counts[side] < FORTRESS_CARDS:
            return None, f"Fortress: the stronger army has fewer than {FORTRESS_CARDS} cards"
        return side, why

    def _finish_combat(self, i: int) -> None:
        info = self.outcome[i]
        assert info is not None
        tot = self.totals(i)
        side, why = self._winner_side(i, tot)
        info.update(totals=tot, counts=[len(self.stacks[i][0]), len(self.stacks[i][1])], why=why, done=True)
        if side is None:
            info["winner"] = None
            text = f"No one conquers the {self.tile_name(i)} ({tot[0]} against {tot[1]}: {why})"
            if self.tiles[i] in ("golden-temple", "fortress") and (self.stacks[i][0] or self.stacks[i][1]):
                self._eliminate(i, [list(range(len(self.stacks[i][s]))) for s in (0, 1)],
                                f"eliminated at the {self.tile_name(i)}")
            self.emit("conquer", {"tile": self.tiles[i], "winner": None, "totals": tot}, text)
        else:
            seat = self.sides[i][side]
            clan = self.clans[seat]
            st = self.stacks[i][side]
            info["winner"] = seat
            info["lord"] = any(card_type(c) == "lord" and card_clan(c) == clan for c, _, _ in st)
            info["peasant"] = any(card_type(c) == "peasant" and card_clan(c) == clan for c, _, _ in st)
            self.emit("conquer", {"tile": self.tiles[i], "winner": seat, "totals": tot},
                      f"{self.name(seat)} conquers the {self.tile_name(i)} ({tot[side]} against {tot[1 - side]}: {why})")
            loser = self.stacks[i][1 - side]
            for cid, _, _ in loser:
                self.removed.append((cid, self.all_mask, "withdrawn", self.sides[i][1 - side]))
            self.stacks[i][1 - side] = []
            if self.tiles[i] == "supply-camp":
                self._supply(seat)

    def _legal_resolve(self, task: ResolveTask) -> list[str]:
        return [f"resolve {self.tiles[i]}" for i in self._unresolved()]

    def _act_resolve(self, task: ResolveTask, action: str) -> None:
        self._combat(self.bf_index(action.split()[1]))
