"""Look-ahead players: greedy and information-set Monte Carlo tree search.

Both look ahead only on *determinized* states (``state.determinize(seat, rng)``):
copies in which everything the seat cannot see — the opponent's hand, deck
orders, the dice generator — has been resampled. They never apply an action to
the real state, so they cannot read hidden cards or foresee the real dice.

Playouts use :func:`playout_policy`, which is better than uniform: it fights when
it can, closes with the enemy and rarely passes, and otherwise picks at random.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from kassen.ai.players import Player
from kassen.engine.protocol import CHANCE, State, sample_chance
from kassen.engine.rng import Rng

AGGRESSIVE = ("attack", "fire", "bonus", "advance", "battle-back")
PASSIVE = ("end-", "done", "no-", "stay", "keep-dragons")


#: actions that give the game away: no player (nor a playout) takes them unless nothing else is legal
RESIGN = ("concede", "resign", "surrender")


#: action -> its kind for the playout policy (below); the same strings recur all game long
_KINDS: dict[str, int] = {}
_FIGHT, _OTHER, _PASSIVE, _RESIGN = 1, 2, 3, 4


def _kind(action: str) -> int:
    k = _KINDS.get(action)
    if k is None:
        k = (_RESIGN if action in RESIGN else _FIGHT if action.startswith(AGGRESSIVE)
             else _PASSIVE if action.startswith(PASSIVE) else _OTHER)
        if len(_KINDS) < 200_000:
            _KINDS[action] = k
    return k


def playout_policy(state: State, legal: list[str], rng: Rng) -> str:
    """A cheap default policy: prefer fighting, then acting, over passing; never concede."""
    kinds = _KINDS
    ks = [kinds.get(a) or _kind(a) for a in legal]
    if _RESIGN in ks:
        kept = [a for a, k in zip(legal, ks) if k != _RESIGN]
        if kept:
            legal, ks = kept, [k for k in ks if k != _RESIGN]
    if _FIGHT in ks and rng.randbelow(10) < 8:
        return rng.choice([a for a, k in zip(legal, ks) if k == _FIGHT])
    active = [a for a, k in zip(legal, ks) if k != _PASSIVE] if _PASSIVE in ks else legal
    if active and rng.randbelow(10) < 8:
        return rng.choice(active)
    return rng.choice(legal)


def rollout(state: State, seat: int, rng: Rng, depth: int) -> float:
    """Play ``depth`` actions with the playout policy, then the heuristic for ``seat``."""
    return play_policy(state, rng, depth).heuristic(seat)


def play_policy(state: State, rng: Rng, depth: int) -> State:
    """The state after up to ``depth`` actions of the playout policy."""
    for _ in range(depth):
        mover = state.to_move()
        if mover is None:  # is_terminal()
            break
        if mover == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.apply(sample_chance(outcomes, rng))
            continue
        state = state.apply(playout_policy(state, state.legal_actions(), rng))
    return state


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
            total = 0.0
            for _ in range(self.samples):
                det = state.determinize(seat, self.rng)
                after = det.apply(action)
                total += rollout(after, seat, self.rng, self.depth)
            value = total / self.samples
            if value > best_value:
                best, best_value = action, value
        return best


@dataclass
class _Node:
    mover: int | None = None  # the seat that chose the action leading here
    visits: int = 0
    value: float = 0.0
    avail: int = 0
    children: dict[str, _Node] = field(default_factory=dict)


class MCTSPlayer(Player):
    """Information-set MCTS (single observer): every iteration samples a determinization
    of what the seat cannot see, descends the shared tree by UCB among the actions legal
    in that sample, expands one node, plays out with :func:`playout_policy` and backs up
    the heuristic value for each mover.

    Budget: ``iterations``, or ``seconds`` when given (whichever ends first).
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
        root = _Node()
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        for _ in range(self.iterations):
            if deadline is not None and time.monotonic() > deadline:
                break
            self._iterate(root, state.determinize(seat, self.rng))
        scored = [(root.children[a].visits, a) for a in legal if a in root.children]
        if not scored:
            return self.rng.choice(legal)
        return max(scored)[1]

    def _iterate(self, root: _Node, s: State) -> None:
        node = root
        path = [root]
        while not s.is_terminal():
            mover = s.to_move()
            if mover == CHANCE:
                s = s.apply(sample_chance(s.chance_outcomes(), self.rng))
                continue
            assert mover is not None
            legal = s.legal_actions()
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            untried = [a for a in legal if a not in node.children]
            if untried:
                a = self.rng.choice(untried)
                child = _Node(mover=mover, avail=1)
                node.children[a] = child
                s = s.apply(a)
                path.append(child)
                break
            a = max(legal, key=lambda act: self._ucb(node.children[act]))
            node = node.children[a]
            s = s.apply(a)
            path.append(node)
        end = play_policy(s, self.rng, self.depth)
        values = end.heuristics()
        for n in path:
            n.visits += 1
            if n.mover is not None:
                n.value += values[n.mover] if 0 <= n.mover < len(values) else 0.0

    def _ucb(self, n: _Node) -> float:
        if n.visits == 0:
            return math.inf
        return n.value / n.visits + self.c * math.sqrt(math.log(max(1, n.avail)) / n.visits)
