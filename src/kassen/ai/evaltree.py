"""Information-set MCTS over the own turn of C&C Samurai, with the turn planner's knowledge.

:class:`PlanSearchPlayer` plays C&C Samurai (both editions):

* **the card** (the ``play`` decision) and **Dragon windows** are the
  :class:`~kassen.ai.planner.TurnPlanner`'s: it values each card by the best orders and
  moves it finds greedily, plays the best cards' turns out ``card_rollouts`` times with
  the opponent's reply, and keeps the winner's orders and moves as its *plan*;
* **orders, moves and battles** are searched: an ISMCTS tree whose nodes are the
  player's own turn decisions (``order``, ``move``, ``battle``). Every iteration takes a
  fresh determinization (the opponent's hand, the decks and the dice resampled with the
  player's own generator), descends by UCB, expands one action, then completes the
  orders and moves by the plan (its actions that are still legal, in order) and values
  the position by the tuned evaluation (:func:`kassen.ai.evaluate.evaluate`: the attacks
  still to make count by their exact expected damage), squashed by ``tanh(v / scale)``.
  Combat dice are rolled inside the tree (a different sample every iteration), and every
  reaction (retreats, flags, battle back, ...) is answered by the planner's
  :func:`~kassen.ai.planner.react` policy, in the tree as in the real game. The tree ends
  with the turn: the evaluation counts the threats of the next one.

So the search can only leave the plan where it finds a better line on average; it
chooses the most visited root action. **Budget**: ``iterations`` per searched
decision (counted, never timed) plus the planner's counted rollouts for the card.

**Fair play.** The real state is read only through ``legal_actions()``,
``observation(seat)`` and ``determinize(seat, rng)``.
"""

from __future__ import annotations

import math
from typing import Any

from kassen.ai.evaluate import Weights, evaluate, load_weights
from kassen.ai.planner import RESIGN, TurnPlanner, react
from kassen.ai.player import Player
from kassen.engine.errors import KassenError
from kassen.engine.protocol import CHANCE, State, sample_chance
from kassen.engine.rng import Rng
from kassen.rulesets.cc_samurai.state import CCState

#: the own-turn decisions the tree holds
SEARCHED = ("order", "move", "battle")


def _top(s: CCState) -> str:
    return s.pending_kind()


class Node:
    """A node of the tree: visits, summed value (for the searching seat), availability."""

    __slots__ = ("avail", "children", "value", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.children: dict[str, Node] = {}


def settle_turn(s: CCState, seat: int, w: Weights, rng: Rng) -> CCState:
    """Answer every decision but ``seat``'s own ``order``/``move``/``battle`` with :func:`react`
    (chance by ``rng``), until one of those, another ``play`` decision, or the end."""
    guard = 0
    while guard < 300:
        guard += 1
        mover = s.to_move()
        if mover is None:
            return s
        if mover == CHANCE:
            s = s.apply(sample_chance(s.chance_outcomes(), rng))
            continue
        top = _top(s)
        if top == "play" or (top in SEARCHED and mover == seat):
            return s
        legal = s.legal_actions()
        s = s.apply(legal[0] if len(legal) == 1 else react(s, mover, legal, w, rng))
    return s


class PlanSearchPlayer(Player):
    """The planner's card and plan, refined by ISMCTS over the rest of the turn (module notes).

    ``iterations``: per searched decision; ``c``: the UCB constant on values in [-1, 1];
    ``scale``: blocks of evaluation per unit of ``tanh``; ``planner``: the settings of the
    :class:`TurnPlanner` that picks the card (and answers Dragon windows).
    """

    name = "plansearch"

    def __init__(self, seed: int = 0, *, iterations: int = 400, c: float = 0.5, scale: float = 6.0,
                 weights: Weights | None = None, planner: dict[str, Any] | None = None,
                 name: str | None = None) -> None:
        self.rng = Rng(seed)
        self.w = weights if weights is not None else load_weights()
        self.iterations = iterations
        self.c = c
        self.scale = scale
        settings: dict[str, Any] = dict(planner or {})
        self.planner = TurnPlanner(seed + 104729, weights=self.w, name=name or self.name, **settings)
        if name:
            self.name = name
        #: the plan's remaining actions (the default the search completes turns with)
        self.default: list[str] = []
        #: the turn (public turn counter) the plan is for
        self._planned_turn: Any = None
        #: iterations run at the last searched decision and in all (counted work)
        self.work = 0
        self.total_work = 0
        self._searched: list[str] = []

    @property
    def explanation(self) -> str | None:
        """The planner's plan for the card and what the search played instead, in words."""
        base = self.planner.explanation
        if base is None:
            return None
        if not self._searched:
            return base
        return f"{base} Searched ({self.iterations} sampled lines a decision): {'; '.join(self._searched)}."

    def choose(self, state: State, seat: int) -> str:
        legal = self.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        if not isinstance(state, CCState):
            raise KassenError(f"{self.name}: plays C&C Samurai only")
        obs = state.observation(seat)
        decision = (obs["pending"] or {}).get("decision", "")
        turn = obs.get("turn")
        if decision == "play":
            action = self.planner.choose(state, seat)
            self.default = [a for _, a in self.planner.plan]
            self._planned_turn = turn
            self._searched = []
            return action
        if decision not in SEARCHED or any(a.startswith("dragon ") for a in legal):
            return self.planner.choose(state, seat)
        if self._planned_turn != turn:
            # a turn that began without our play decision (a test's position): plan it now
            det = state.determinize(seat, self.rng)
            self.default = self.planner.plan_turn(det, seat)
            self._planned_turn = turn
            self._searched = []
        action = self._search(state, seat, legal)
        if action in self.default:
            self.default.remove(action)
        self._searched.append(action)
        return action

    # ------------------------------------------------------------ the search
    def _search(self, state: CCState, seat: int, legal: list[str]) -> str:
        legal = [a for a in legal if a not in RESIGN] or legal
        root = Node()
        self.work = 0
        for _ in range(self.iterations):
            self.work += 1
            self.total_work += 1
            self._iterate(root, state.determinize(seat, self.rng), seat)
        scored = [(root.children[a].visits, root.children[a].value, a) for a in legal if a in root.children]
        if not scored:
            return self.default[0] if self.default and self.default[0] in legal else legal[0]
        return max(scored)[2]

    def _iterate(self, root: Node, s: CCState, seat: int) -> None:
        w, rng, c = self.w, self.rng, self.c
        node = root
        path = [root]
        while True:
            if s.is_terminal() or s.to_move() != seat or _top(s) not in SEARCHED:
                break
            legal = [a for a in s.legal_actions() if a not in RESIGN]
            if not legal:
                break
            children = node.children
            untried: list[str] = []
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
                else:
                    untried.append(a)
            if untried:
                # the plan's next action first, then at random
                a = next((d for d in self.default if d in untried), "") or rng.choice(untried)
                child = Node()
                child.avail = 1
                children[a] = child
                path.append(child)
                s = settle_turn(s.apply(a), seat, w, rng)
                break
            best, best_node, best_u = legal[0], children[legal[0]], -math.inf
            for a in legal:
                n = children[a]
                u = n.value / n.visits + c * math.sqrt(math.log(max(1, n.avail)) / n.visits)
                if u > best_u:
                    best, best_node, best_u = a, n, u
            node = best_node
            path.append(node)
            s = settle_turn(s.apply(best), seat, w, rng)
        s = self._complete(s, seat)
        value = math.tanh(evaluate(s, seat, w) / self.scale)
        for n in path:
            n.visits += 1
            n.value += value

    def _complete(self, s: CCState, seat: int) -> CCState:
        """Orders and moves completed by the plan (its actions still legal, in order), to the battle phase."""
        w, rng = self.w, self.rng
        for a in self.default:
            if s.is_terminal() or s.to_move() != seat or _top(s) not in ("order", "move"):
                break
            if a in s.legal_actions():
                s = settle_turn(s.apply(a), seat, w, rng)
        guard = 0
        while not s.is_terminal() and s.to_move() == seat and _top(s) in ("order", "move") and guard < 20:
            guard += 1
            s = settle_turn(s.apply("done" if _top(s) == "order" else "end-move"), seat, w, rng)
        return s

