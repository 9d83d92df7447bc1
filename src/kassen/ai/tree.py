"""The tree of the information-set MCTS player (kassen.ai.search.MCTSPlayer): typed nodes
and the per-iteration loop (selection, expansion, playout, backup). Compiled with the
engine where a C compiler works (setup.py), like the playout loop it calls.

Every iteration starts from a fresh determinization of what the seat cannot see; a node
keeps only statistics (visits, value, availability), never anything read from a sample.
"""

from __future__ import annotations

import math
import time

from kassen.ai.playout import play_policy
from kassen.engine.protocol import CHANCE, State, sample_chance
from kassen.engine.rng import Rng

#: the mover of the root node (no action leads there)
ROOT = -2


class Node:
    """One action's node: who chose it, visits, summed value, times it was available."""

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.children: dict[str, Node] = {}


def ucb(n: Node, c: float) -> float:
    """UCB1 with availability counts (the ISMCTS form): infinite until visited."""
    if n.visits == 0:
        return math.inf
    return n.value / n.visits + c * math.sqrt(math.log(max(1, n.avail)) / n.visits)


def iterate(root: Node, s: State, rng: Rng, depth: int, c: float) -> None:
    """One iteration on the determinized state ``s``: descend by UCB among the actions legal
    in ``s``, expand one untried action, play out ``depth`` actions, back up every mover's
    heuristic."""
    node = root
    path = [root]
    while not s.is_terminal():
        mover = s.to_move()
        if mover == CHANCE:
            s = s.apply(sample_chance(s.chance_outcomes(), rng))
            continue
        assert mover is not None
        legal = s.legal_actions()
        children = node.children
        untried: list[str] = []
        for a in legal:
            child = children.get(a)
            if child is not None:
                child.avail += 1
            else:
                untried.append(a)
        if untried:
            a = rng.choice(untried)
            child = Node(mover)
            child.avail = 1
            children[a] = child
            s = s.apply(a)
            path.append(child)
            break
        # the first action of highest UCB, as max(legal, key=ucb) picks it
        best = legal[0]
        best_node = children[best]
        best_u = ucb(best_node, c)
        for a in legal:
            n = children[a]
            u = ucb(n, c)
            if u > best_u:
                best, best_node, best_u = a, n, u
        node = best_node
        s = s.apply(best)
        path.append(node)
    values = play_policy(s, rng, depth).heuristics()
    count = len(values)
    for n in path:
        n.visits += 1
        m = n.mover
        if m != ROOT:
            n.value += values[m] if 0 <= m < count else 0.0


def search(state: State, seat: int, rng: Rng, iterations: int, seconds: float | None, depth: int,
           c: float) -> Node:
    """The root after ``iterations`` iterations (or ``seconds`` of wall time, whichever ends
    first), each on ``state.determinize(seat, rng)``."""
    root = Node(ROOT)
    timed = seconds is not None
    deadline = time.monotonic() + seconds if seconds is not None else 0.0
    for _ in range(iterations):
        if timed and time.monotonic() > deadline:
            break
        iterate(root, state.determinize(seat, rng), rng, depth, c)
    return root
