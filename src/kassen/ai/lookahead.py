"""The levels of the games other than C&C Samurai: sequential halving over the legal
actions, on determinized states, with each game's own evaluation.

Every playout samples a determinization (``state.determinize(seat, rng)``: the other
seats' hands, deck orders and the dice resampled), applies the action, plays on with
:func:`kassen.ai.search.playout_policy` for up to ``depth`` actions and scores the
result with the game's evaluation (:mod:`kassen.ai.evaluate_games`). Within a round
every candidate is tried on the *same* determinizations (common random numbers), so
they are compared on the same dice and the same unseen cards. Each round keeps the
better half of the candidates, until one is left.

**Endgame.** Where the game's :class:`Endgame` applies (An Honourable Victory!: the
movement phases before the Determine Victory Phase that ends the battle), a playout is
the action and then the game played out to its *result* by the endgame's policy for
both sides, ``end_playouts`` per decision instead of ``playouts``. Where dice still come
before the result (``endgame.chancy``), the ordinary playouts (``playouts``) first cut the
candidates to ``shortlist``, so that each finalist gets several endgame play-outs.

**Horizon** (optional, unused by default). A decision for which ``horizon(state, seat)``
holds is judged where the horizon ends (the playout stops there, or when the seat decides
again).

**Budget.** ``playouts`` (``end_playouts``; both with a shortlist) per decision, counted (``last_work``,
``total_work``), never timed: the same seed makes the same choices on any machine, under
any load.

**Conceding.** The player never takes an action of :data:`kassen.ai.search.RESIGN`
while anything else is legal: a battle is given up only when there is nothing else to
do (it never is in An Honourable Victory!, where ``end`` is always legal).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

from kassen.ai.player import Player
from kassen.ai.search import RESIGN, play_policy, playout_policy
from kassen.engine.protocol import CHANCE, State, sample_chance
from kassen.engine.rng import Rng

#: an evaluation: how well ``seat`` stands in a (determinized) state, in [-1, 1] or so
Evaluation = Callable[[State, int], float]


#: whether a seat's decision in a state belongs to a phase judged at its end (and whether a
#: playout is still in it)
Horizon = Callable[[State, int], bool]


class Endgame(Protocol):
    """A game's last phases, searched to the result: where it applies, how a playout goes on
    from there (both sides), and what the end is worth to a seat."""

    def applies(self, state: State) -> bool: ...

    def chancy(self, state: State) -> bool: ...

    def play(self, state: State, rng: Rng) -> State: ...

    def value(self, state: State, seat: int) -> float: ...


def heuristic_evaluation(state: State, seat: int) -> float:
    """The ruleset's own ``heuristic``: the fallback of a game without an evaluation here."""
    return state.heuristic(seat)


def without_resigning(legal: list[str]) -> list[str]:
    """The legal actions without conceding, unless conceding is all there is.

    >>> without_resigning(["end", "concede"])
    ['end']
    >>> without_resigning(["concede"])
    ['concede']
    """
    return [a for a in legal if a not in RESIGN] or legal


#: one decision explained: its public question, the playouts, whether they were played out to the
#: result, the chosen action's mean estimate and its margin over the next best (None: not judged)
Note = tuple[str, int, bool, float | None, float | None]


def explain_notes(name: str, turn: object, notes: list[Note]) -> str:
    """A turn's decisions in words, consecutive decisions of one question together:
    ``normal, turn 2: North: choose a unit ... (3 decisions, 360 playouts on resampled hidden
    facts): the last choice estimated +0.42, +0.10 over the next best.``

    >>> explain_notes("easy", 1, [("South: fire?", 16, False, 0.5, 0.25), ("South: fire?", 16, False, 0.25, None)])
    'easy, turn 1: South: fire? (2 decisions, 32 playouts on resampled hidden facts): the last choice estimated +0.25.'
    """
    groups: list[list[Note]] = []
    for n in notes:
        if groups and groups[-1][0][0] == n[0]:
            groups[-1].append(n)
        else:
            groups.append([n])
    parts = []
    for g in groups:
        work = sum(n[1] for n in g)
        how = "playouts to the result" if any(n[2] for n in g) else "playouts on resampled hidden facts"
        text = f"{g[0][0]} ({len(g)} decision{'s' if len(g) > 1 else ''}, {work} {how})"
        mean, margin = g[-1][3], g[-1][4]
        if mean is not None:
            text += f": the {'last ' if len(g) > 1 else ''}choice estimated {mean:+.2f}"
            if margin is not None:
                text += f", {margin:+.2f} over the next best"
        parts.append(text)
    where = f"turn {turn}" if turn is not None else "decisions"
    return f"{name}, {where}: " + "; ".join(parts) + "."


class HalvingPlayer(Player):
    """Sequential halving over the legal actions with ``playouts`` playouts per decision
    (each: a determinization, the action, ``depth`` actions of the playout policy, the
    evaluation). With ``until_mine`` the playout stops as soon as ``seat`` must decide
    again: it plays only the replies and the dice, and the evaluation judges the action
    rather than random moves of its own that follow."""

    name = "halving"

    def __init__(self, seed: int = 0, *, evaluation: Evaluation = heuristic_evaluation, playouts: int = 200,
                 depth: int = 12, until_mine: int = 0, name: str | None = None,
                 endgame: Endgame | None = None, end_playouts: int = 0, horizon: Horizon | None = None,
                 shortlist: int = 0) -> None:
        self.rng = Rng(seed)
        self.shortlist = shortlist
        self.horizon = horizon
        self.until_mine = bool(until_mine)
        self.endgame = endgame
        self.end_playouts = end_playouts
        self.evaluation = evaluation
        self.playouts = playouts
        self.depth = depth
        if name is not None:
            self.name = name
        #: playouts of the last decision and of every decision so far (the budget, counted)
        self.last_work = 0
        self.total_work = 0
        self._within = False
        #: the mean evaluation of each candidate the last halving judged (the explanation's estimate)
        self._means: dict[str, float] = {}
        #: the decisions of the current turn in words (``explanation``), with the turn they are of
        self._notes: list[Note] = []
        self._notes_turn: tuple[object, ...] | None = None
        #: the last turn's decisions in words (``kassen play --explain``, the page's "Explain the
        #: AI's turns"): each decision's public question, the playouts it was judged by and the
        #: estimate of the choice; the action itself is not named (it may be a hidden card or a
        #: secret declaration), nor the number of choices (it can tell a hidden hand)
        self.explanation: str | None = None

    def choose(self, state: State, seat: int) -> str:
        legal = without_resigning(state.legal_actions())
        self.last_work = 0
        if len(legal) == 1:
            return legal[0]
        ending = self.endgame is not None and self.end_playouts > 0 and self.endgame.applies(state)
        self._within = self.horizon is not None and self.horizon(state, seat)
        # random tie-breaks; with fewer playouts than actions, a random few of them
        cands = self.rng.shuffled(legal)
        if ending and self.shortlist and len(cands) > self.shortlist:
            assert self.endgame is not None
            if self.endgame.chancy(state):  # dice before the result: a few candidates, more samples each
                cands = self._halve(state, seat, cands[: max(1, self.playouts)], self.playouts, False,
                                    self.shortlist)
        cands = self._halve(state, seat, cands[: max(1, self.end_playouts if ending else self.playouts)],
                            self.end_playouts if ending else self.playouts, ending, 1)
        self.total_work += self.last_work
        self._explain(state, seat, cands[0], ending)
        return cands[0]

    def _explain(self, state: State, seat: int, chosen: str, ending: bool) -> None:
        """Add this decision to the turn's explanation, in words any seat may read."""
        public = state.observation(None)
        turn = (public.get("turn"), public.get("round"), public.get("active"))
        if turn != self._notes_turn:
            self._notes_turn, self._notes = turn, []
        pending = public.get("pending")
        question = pending.get("prompt") if isinstance(pending, dict) else None
        if not question:  # the question is not public (the clan game): the seat and the phase only
            names = state.seat_names()
            who = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
            phase = public.get("phase")
            question = f"{who}: a decision of the {phase} phase" if isinstance(phase, str) else f"{who}: a decision"
        mean = self._means.get(chosen)
        others = [v for a, v in self._means.items() if a != chosen]
        self._notes.append((str(question), self.last_work, ending, mean,
                            None if mean is None or not others else mean - max(others)))
        del self._notes[:-40]
        self.explanation = explain_notes(self.name, turn[0], self._notes)

    def _halve(self, state: State, seat: int, cands: list[str], budget: int, ending: bool, keep: int) -> list[str]:
        """Sequential halving of ``cands`` with ``budget`` playouts (endgame play-outs with
        ``ending``) until at most ``keep`` are left; the best first."""
        total: dict[str, float] = dict.fromkeys(cands, 0.0)
        count: dict[str, int] = dict.fromkeys(cands, 0)
        rounds = max(1, math.ceil(math.log2(max(1, len(cands) / keep))))
        left = budget
        for r in range(rounds):
            if len(cands) <= keep:
                break
            share = left // (rounds - r)
            per = max(1, share // len(cands))
            if per * len(cands) > left:  # the budget is spent: keep the best so far
                break
            seeds = [self.rng.next64() for _ in range(per)]
            for a in cands:
                for sd in seeds:
                    total[a] += self._ending(state, seat, a, sd) if ending else self._playout(state, seat, a, sd)
                    count[a] += 1
            left -= per * len(cands)
            cands.sort(key=lambda act: -total[act] / count[act])  # stable: ties keep the shuffled order
            cands = cands[: max(keep, (len(cands) + 1) // 2)]
        self._means = {a: total[a] / count[a] for a in total if count[a]}
        return cands[:keep] if any(count.values()) else cands

    def _playout(self, state: State, seat: int, action: str, seed: int) -> float:
        self.last_work += 1
        det = state.determinize(seat, Rng(seed))
        rng = Rng(seed ^ 0x5DEECE66D)
        end = det.apply(action)
        if self._within:  # a decision of a phase judged at its end: only the reactions within it
            assert self.horizon is not None
            horizon = self.horizon
            end = play_until(end, seat, rng, self.depth, lambda s: not horizon(s, seat))
        elif self.until_mine:
            end = play_until(end, seat, rng, self.depth)
        else:
            end = play_policy(end, rng, self.depth)
        return self.evaluation(end, seat)


    def _ending(self, state: State, seat: int, action: str, seed: int) -> float:
        """A playout of the endgame: the action, then the game played out to its result by the
        endgame's policy (both sides), scored by the endgame's value."""
        assert self.endgame is not None
        self.last_work += 1
        det = state.determinize(seat, Rng(seed))
        end = self.endgame.play(det.apply(action), Rng(seed ^ 0x5DEECE66D))
        return self.endgame.value(end, seat)


def play_until(state: State, seat: int, rng: Rng, depth: int, stop: Callable[[State], bool] | None = None) -> State:
    """The state after the other seats' replies (playout policy) and chance, up to ``depth``
    actions: stops when ``seat`` must decide again, or earlier when ``stop`` says so."""
    for _ in range(depth):
        mover = state.to_move()
        if mover is None or mover == seat or (stop is not None and stop(state)):
            break
        if mover == CHANCE:
            state = state.apply(sample_chance(state.chance_outcomes(), rng))
        else:
            state = state.apply(playout_policy(state, state.legal_actions(), rng))
    return state
