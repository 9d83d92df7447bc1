"""The legal actions as integers of an action index, from the engine's own parts (issue 16).

An environment numbers every action notation of a game (``kassen.envs.actions``) and needs the
integers of each state's legal actions. Looking each string up in the index's dict costs a
cache miss or two per action in a training loop, where the engine evicts the index's memory
between two decisions. :class:`ActionCodes` holds one index's integers as the engine reads them:
the movement searches (``Dests``: most of the legal actions) keep the integers of their
``move ...`` actions beside the strings, read from a table by hex ids (origin, destination) when
the search is new, so a move decision's integers are those lists merged in the order of the
strings (by each action's rank in the index's sorted strings: the legal moves are sorted). Every
other action goes through a small dict of the actions met (``hot``), then the index's own dict.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kassen.rulesets.cc_samurai.board import HEX_ID, NAME_OF, NCELLS
from kassen.rulesets.cc_samurai.movement import LEADER_KEY, MOVE_LEADER_PRE, UNIT_KEY

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState

#: bits of an integer in a move's sort key (rank << _BITS | integer)
_BITS = 16
_LOW = (1 << _BITS) - 1
#: actions kept in ``ActionCodes.hot`` at most
_HOT = 1 << 12
#: a move's destination -> its column in ``ActionCodes.moves`` (a hex id; ``off`` after the hexes)
DEST_ID: dict[str, int] = {**{n: i for i, n in enumerate(NAME_OF)}, "off": NCELLS}
_WIDTH = NCELLS + 1


class ActionCodes:
    """The integers of one action index (``actions[i]`` is action ``i``), as the C&C state reads them
    (:meth:`CCState.legal_codes`)."""

    def __init__(self, actions: Sequence[str]) -> None:
        #: notation -> integer
        self.ids: dict[str, int] = {a: i for i, a in enumerate(actions)}
        #: integer -> its place among the actions sorted as strings (the legal moves' order)
        self.rank: list[int] = [0] * len(actions)
        for r, i in enumerate(sorted(range(len(actions)), key=actions.__getitem__)):
            self.rank[i] = r
        #: the moves' integers can be packed with their rank into one sort key
        self.packed = len(actions) <= _LOW
        #: the sort keys (rank << 16 | integer; -1: not listed) of ``move H D`` at ``HEX_ID[H] * 138 +
        #: DEST_ID[D]``, and of ``move H leader D`` in ``leader_moves``: a hex's row is one stretch of
        #: memory, so a new search's keys cost a cache miss or two, not one per destination
        self.moves: list[int] = [-1] * (NCELLS * _WIDTH)
        self.leader_moves: list[int] = [-1] * (NCELLS * _WIDTH)
        found: dict[tuple[bool, int], int] = {}
        ids = self.ids
        for h in range(NCELLS):
            name = NAME_OF[h]
            for leader in (False, True):
                pre = f"move {name} leader " if leader else f"move {name} "
                for d, col in DEST_ID.items():
                    got = ids.get(pre + d)
                    if got is not None:
                        found[(leader, h * _WIDTH + col)] = got
        if self.packed:
            for (leader, at), j in sorted(found.items()):  # row by row: a row's keys made together
                (self.leader_moves if leader else self.moves)[at] = self.rank[j] << _BITS | j
        #: the actions met in play other than moves -> their integers: a few hundred, so a look-up
        #: stays in the processor's cache (it often finds the engine's own string object)
        self.hot: dict[str, int] = {}

    def code(self, action: str) -> int | None:
        """The integer of ``action`` (None when the index does not list it)."""
        i = self.hot.get(action)
        if i is None:
            i = self.ids.get(action)
            if i is not None:
                hot = self.hot
                if len(hot) >= _HOT:
                    hot.clear()
                hot[action] = i
        return i


def legal_codes(st: CCState, codes: ActionCodes) -> list[int] | None:
    """The integer of each legal action of ``st``, in the order of ``legal_actions``; None when one
    is not in the index (the caller numbers them as it numbers unlisted actions)."""
    if st._result is not None or not st.stack:
        return []
    legal = st.pending_actions()
    out: list[int] = []
    n = 0
    if st.stack[-1]["t"] == "move" and codes.packed:
        got = _move_keys(st, codes)
        if got is None:
            return None
        n = len(got)
        if n > len(legal):
            return None
        got.sort()
        out = [k & _LOW for k in got]
    for k in range(n, len(legal)):
        i = codes.code(legal[k])
        if i is None:
            return None
        out.append(i)
    return out


def _move_keys(st: CCState, codes: ActionCodes) -> list[int] | None:
    """The sort keys (rank << 16 | integer) of the ``move ...`` actions of ``st``'s move decision,
    from its movement searches, as ``_mover_actions`` walks them (a search's keys kept on it, for
    the states that reuse it); None if a search is missing or an action is not listed."""
    ti = st.ti
    moved: dict[str, int] = ti["moved"]
    orders: list[str] = ti["orders"]
    units, utypes, mv = st.units, st.t.units, st._mv
    keys: list[int] = []
    for key in orders:
        if key in moved:
            continue
        h = st.key_hex(key)
        if h is None:
            continue
        if key[0] == "u":
            if utypes[units[h].type].bodyguard:
                continue
            dests = mv.get(UNIT_KEY[h])
        else:
            dests = mv.get(LEADER_KEY[h])
        if dests is None:
            return None
        acts = dests.acts
        if acts is None:
            return None
        got = dests.codes
        if got is None or dests.codes_of is not codes:
            if not acts:
                continue
            # the prefix the search's actions were made with (a Leader apart from his unit, or alone)
            table = codes.leader_moves if acts[0].startswith(MOVE_LEADER_PRE[h]) else codes.moves
            base = HEX_ID[h] * _WIDTH
            got = []
            for d in dests.to:
                col = DEST_ID.get(d)
                if col is None:
                    return None
                k = table[base + col]
                if k < 0:
                    return None
                got.append(k)
            dests.codes, dests.codes_of = got, codes
        keys += got
    return keys
