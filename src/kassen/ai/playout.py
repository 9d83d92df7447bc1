"""The playout loop of the look-ahead players (kassen.ai.search): the cheap playout policy,
short playouts, and greedy's value of one action. Compiled with the engine where a C
compiler works (setup.py): MCTS and greedy spend nearly all their time here and in ``apply``.
"""

from __future__ import annotations

from kassen.engine.protocol import CHANCE, State, sample_chance
from kassen.engine.rng import Rng

AGGRESSIVE = ("attack", "fire", "bonus", "advance", "battle-back")
PASSIVE = ("end-", "done", "no-", "stay", "keep-dragons")


#: actions that give the game away: no player (nor a playout) takes them unless nothing else is legal
RESIGN = ("concede", "resign", "surrender")


#: action -> its kind for the playout policy (below); the same strings recur all game long
_KINDS: dict[str, int] = {}
_FIGHT, _OTHER, _PASSIVE, _RESIGN = 1, 2, 3, 4
#: the first letters of the prefixes above: an action starting otherwise (most: "move ...",
#: "order ...") is of kind _OTHER without a look-up in the large table
_FIRST = "".join(sorted({p[0] for p in AGGRESSIVE + PASSIVE + RESIGN}))


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
    ks: list[int] = []
    fight = passive = resign = False
    first = _FIRST
    for a in legal:
        if a[:1] not in first:
            ks.append(_OTHER)
            continue
        k = kinds.get(a)
        if k is None:
            k = _kind(a)
        ks.append(k)
        if k == _FIGHT:
            fight = True
        elif k == _PASSIVE:
            passive = True
        elif k == _RESIGN:
            resign = True
    if resign:
        kept = [a for a, k in zip(legal, ks) if k != _RESIGN]
        if kept:
            legal, ks = kept, [k for k in ks if k != _RESIGN]
    if fight and rng.randbelow(10) < 8:
        return rng.choice([a for a, k in zip(legal, ks) if k == _FIGHT])
    active = [a for a, k in zip(legal, ks) if k != _PASSIVE] if passive else legal
    if active and rng.randbelow(10) < 8:
        return rng.choice(active)
    return rng.choice(legal)


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


def rollout(state: State, seat: int, rng: Rng, depth: int) -> float:
    """Play ``depth`` actions with the playout policy, then the heuristic for ``seat``."""
    return play_policy(state, rng, depth).heuristic(seat)


def greedy_value(state: State, action: str, seat: int, rng: Rng, samples: int, depth: int) -> float:
    """Greedy's value of ``action``: the mean over ``samples`` determinizations of ``state``
    of a ``depth``-action rollout after it (the draws from ``rng`` in that order)."""
    total = 0.0
    for _ in range(samples):
        det = state.determinize(seat, rng)
        after = det.apply(action)
        total += rollout(after, seat, rng, depth)
    return total / samples
