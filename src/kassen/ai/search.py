"""Look-ahead players: greedy and information-set Monte Carlo tree search.

Both look ahead only on *determinized* states (``state.determinize(seat, rng)``):
copies in which everything the seat cannot see — the opponent's hand, deck
orders, the dice generator — has been resampled. They never apply an action to
the real state, so they cannot read hidden cards or foresee the real dice.

Playouts use :func:`playout_policy`, which is better than uniform: it fights when
it can, closes with the enemy and rarely passes, and otherwise picks at random
(kassen.ai.playout: the playout loop, compiled with the engine).
"""

from __future__ import annotations

import math

from kassen.ai.player import Player
from kassen.ai.playout import (
    AGGRESSIVE,
    PASSIVE,
    RESIGN,
    greedy_value,
    play_policy,
    playout_policy,
    rollout,
)
from kassen.ai.tree import search
from kassen.engine.protocol import State
from kassen.engine.rng import Rng

__all__ = ["AGGRESSIVE", "PASSIVE", "RESIGN", "GreedyPlayer", "MCTSPlayer", "play_policy", "playout_policy",
           "rollout"]


class GreedyPlayer(Player):
    """One ply: each legal action is tried on a few determinized states and followed by a
    short playout to the end of the current turn; the best average heuristic wins.

    Dice are sampled, so an attack is valued by its expected hits, flags, retreats,
    Honor & Fortune and supports as the heuristic sees them.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, samples: int = 3, depth: int = 12) -> None:
        self.rng = Rng(seed)
        self.samples = samples
        self.depth = depth

    def choose(self, state: State, seat: int) -> str:
        legal = [a for a in state.legal_actions() if a not in RESIGN] or state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        best, best_value = legal[0], -math.inf
        order = self.rng.shuffled(legal)  # random tie-breaks
        for action in order:
            value = greedy_value(state, action, seat, self.rng, self.samples, self.depth)
            if value > best_value:
                best, best_value = action, value
        return best


class MCTSPlayer(Player):
    """Information-set MCTS (single observer): every iteration samples a determinization
    of what the seat cannot see, descends the shared tree by UCB among the actions legal
    in that sample, expands one node, plays out with :func:`playout_policy` and backs up
    the heuristic value for each mover.

    Budget: ``iterations``, or ``seconds`` when given (whichever ends first). The tree and
    its loop: kassen.ai.tree (compiled with the engine).
    """

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 300, seconds: float | None = None,
                 depth: int = 30, c: float = 0.9) -> None:
        self.rng = Rng(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.c = c

    def choose(self, state: State, seat: int) -> str:
        legal = [a for a in state.legal_actions() if a not in RESIGN] or state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root = search(state, seat, self.rng, self.iterations, self.seconds, self.depth, self.c)
        scored = [(root.children[a].visits, a) for a in legal if a in root.children]
        if not scored:
            return self.rng.choice(legal)
        return max(scored)[1]
