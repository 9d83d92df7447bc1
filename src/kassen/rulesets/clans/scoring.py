"""Scoring (002:258-280): Victory Points of the Battlefields conquered, the Peasant and Lord
bonuses, the Torii, the cowardly Lord; the winner (teams add up)."""

from __future__ import annotations

from kassen.engine.protocol import Result
from kassen.rulesets.clans.common import COWARDICE, LORD_BONUS, PEASANT_BONUS, card_type
from kassen.rulesets.clans.placement import PlacementRules


class ScoringRules(PlacementRules):
    """Victory Points and the result."""

    def seat_score(self, seat: int) -> tuple[int, int, list[str]]:
        """(Victory Points, Battlefields conquered, the reasons) of a finished game (002:258-275)."""
        vp, won, why = 0, 0, []
        conquered = [i for i, o in enumerate(self.outcome) if o is not None and o.get("winner") == seat]
        for i in conquered:
            won += 1
            name = self.tile_name(i)
            vp += self.table.vp(self.tiles[i])
            why.append(f"{name} {self.table.vp(self.tiles[i])}")
            info = self.outcome[i]
            assert info is not None
            if info.get("peasant"):
                vp += PEASANT_BONUS
                why.append(f"Peasant on the {name} +{PEASANT_BONUS}")
            if info.get("lord"):
                vp += LORD_BONUS
                why.append(f"Lord on the {name} +{LORD_BONUS}")
            if self.tiles[i] == "torii" and len(conquered) > 1:
                vp += len(conquered) - 1
                why.append(f"Torii +{len(conquered) - 1}")
        last = self.last_card[seat]
        if last is not None and card_type(last) == "lord":
            vp -= COWARDICE
            why.append(f"Lord deployed last -{COWARDICE}")
        return vp, won, why

    def _score(self) -> None:
        self.stack = []
        scores = [self.seat_score(s) for s in range(self.n)]
        self.vp = [v for v, _, _ in scores]
        for s, (v, w, why) in enumerate(scores):
            self.emit("score", {"seat": s, "vp": v, "conquered": w},
                      f"{self.name(s)}: {v} VP, {w} Battlefield{'s' if w != 1 else ''} conquered"
                      + (f" ({', '.join(why)})" if why else ""))
        groups: list[tuple[int, ...]] = [(0, 2), (1, 3)] if self.teams else [(s,) for s in range(self.n)]
        keyed = [(sum(scores[s][0] for s in g), sum(scores[s][1] for s in g)) for g in groups]
        best = max(keyed)
        top = [g for g, k in zip(groups, keyed) if k == best]
        out = [0.0] * self.n
        if len(top) == 1:
            for s in top[0]:
                out[s] = 1.0
            names = " & ".join(self.name(s) for s in top[0])
            tie = " (tie broken by Battlefields conquered)" if sum(1 for k in keyed if k[0] == best[0]) > 1 else ""
            self._result = Result(top[0][0], f"{names}: most Victory Points, {best[0]}{tie}", tuple(out))
        else:
            for g in top:
                for s in g:
                    out[s] = 0.5
            self._result = Result(None, f"tie on {best[0]} Victory Points and {best[1]} Battlefields", tuple(out))
        self.emit("result", self._result.to_json(), self._result.reason)
