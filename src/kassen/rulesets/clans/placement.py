"""Setting up the Battlefields (002:55-126): the experienced set-up's draft, where each chooser
places a Battlefield between two players."""

from __future__ import annotations

from kassen.rulesets.clans.common import ClansStateData
from kassen.rulesets.clans.data import TILES
from kassen.rulesets.clans.tasks import DeployTask, DraftTask


class PlacementRules(ClansStateData):
    """The draft of the Battlefields."""

    def _choose(self, tile: str) -> None:
        seat, a, b = self.queue.pop(0)
        self.offer.remove(tile)
        self._place_tile(tile, a, b)
        self.emit("choose", {"seat": seat, "tile": tile, "between": [a, b]},
                  f"{self.name(seat)} places the {TILES[tile][0]} between {self.name(a)} and {self.name(b)}")
        if not self.queue:
            if self.offer:
                self.emit("return", {"tiles": sorted(self.offer)},
                          "Unchosen Battlefields go back to the box: "
                          + ", ".join(TILES[t][0] for t in sorted(self.offer)))
            self.offer = []
            if self.draft_stage == 0:
                self.start_draft(1)
            else:
                self._enter(DeployTask(t="deploy"))

    def _place_tile(self, tile: str, a: int, b: int) -> None:
        self.tiles.append(tile)
        self.sides.append((a, b))
        self.stacks.append([[], []])
        self.outcome.append(None)
        self.bonus.append([0, 0])

    def start_draft(self, stage: int) -> None:
        """Experienced set-up (002:104-120, 67-91): draw players + 1 tiles face up from the
        4-VP stack (stage 0) or the 6-VP stack (stage 1); choosers in turn place one each (C3)."""
        self.draft_stage = stage
        n = self.n
        vp = 4 if stage == 0 else 6
        pool = sorted(t for t in TILES if self.table.vp(t) == vp)
        self.offer = self.rng.shuffled(pool)[: n + 1]
        if stage == 0:
            self.queue = [(s, s, (s + 1) % n) for s in range(n)]
        else:
            self.queue = [(s, s, (s - 1) % n) for s in range(n - 1, -1, -1)]
        self.emit("draw", {"tiles": sorted(self.offer), "vp": vp},
                  f"Drawn face up from the {vp}-VP stack: " + ", ".join(TILES[t][0] for t in sorted(self.offer)))

    def _legal_draft(self, task: DraftTask) -> list[str]:
        return [f"choose {t}" for t in sorted(self.offer)]

    def _act_draft(self, task: DraftTask, action: str) -> None:
        self._choose(action.split()[1])
