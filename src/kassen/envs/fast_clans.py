"""The clan card game's observation tensor read straight from the state, without the JSON view.

:class:`ClansObserver` gives the same tensor as ``encoder("clans").encode(state.observation(seat))``
(tested at every decision of seeded games), reading only what ``observation(seat)`` shows that
seat: a face-down card's type only where ``state.knows(seat, card)``, a card out of the game
only where ``state.knows_removed``, the seat's own hand. The tensor is small (a few hundred
floats), so it is written whole at every call. Sums are float32 as the JSON encoder's
(``vec[i] += x``): each increment rounded to float32 and added in double, which rounds to the
same float32 (double has more than twice float32's precision).
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from kassen.envs.tensors import CLANS_MAX_SEATS, ClansEncoder
from kassen.rulesets.clans.common import card_type
from kassen.rulesets.clans.state import ClansState

_F32 = array("f", [0.0])


def r32(x: float) -> float:
    """``x`` rounded to float32."""
    f = _F32
    f[0] = x
    return f[0]


class ClansObserver:
    """``observe(state, seat)`` for the clan game."""

    def __init__(self, enc: ClansEncoder) -> None:
        self.enc = enc
        lay = enc.layout
        self.size = lay.size
        self.hw = lay.grid[0] * lay.grid[1]
        self.v0 = lay.plane_size
        self.tile_of = {t: i for i, t in enumerate(enc.tiles)}
        ch = {n: k * self.hw for n, k in enc.ch.items()}
        self.ch = ch
        v0 = self.v0
        self.sc = {n: v0 + i for n, i in enc.sc.items()}
        self.up = {t: ch[f"up:{t}"] for t in enc.types}
        self.known_down = {t: ch[f"known-down:{t}"] for t in enc.types}
        self.owner = [ch[f"owner:+{k}"] for k in range(CLANS_MAX_SEATS)]
        self.hand_inc = {t: r32(1 / enc.copies.get(t, 1)) for t in enc.types}
        self.q13 = r32(1 / 13)
        self.q4 = r32(1 / 4)
        self.rk = r32(1 / (4 * CLANS_MAX_SEATS))
        self.ru = r32(1 / (13 * CLANS_MAX_SEATS))

    def observe(self, st: ClansState, seat: int) -> Any:
        out = np.zeros(self.size, np.float32)
        mv: Any = memoryview(out)  # type: ignore[arg-type]
        ch, sc = self.ch, self.sc
        n = len(st.clans)
        me = seat
        partner = (me + 2) % 4 if st.teams else None
        stack = st.stack
        c_in, c_vp, c_res, c_won = ch["in-play"], ch["vp"], ch["resolved"], ch["won"]
        c_partner, c_count, c_shown, c_bonus = ch["partner"], ch["count"], ch["strength-shown"], ch["bonus"]
        c_down, c_unknown = ch["face-down"], ch["face-down-unknown"]
        up, known_down, owner_ch = self.up, self.known_down, self.owner
        q4, q13 = self.q4, self.q13
        over = not stack
        for i, tile in enumerate(st.tiles):
            b = self.tile_of[tile] * 2
            info = st.outcome[i]
            outcome = info if info is not None and info.get("done") else None
            vp = st.table.vp(tile) / 6
            for j in (0, 1):
                cell = b + j
                owner = st.sides[i][j]
                cards = st.stacks[i][j]
                mv[c_in + cell] = 1.0
                mv[c_vp + cell] = vp
                mv[owner_ch[(owner - me) % n] + cell] = 1.0
                mv[c_partner + cell] = float(owner == partner)
                mv[c_count + cell] = len(cards) / 13
                mv[c_bonus + cell] = st.bonus[i][j] / 5
                if outcome is not None:
                    mv[c_res + cell] = 1.0
                    mv[c_won + cell] = float(outcome.get("winner") == owner)
                shown = False
                for e in cards:
                    if e[1]:
                        shown = True
                        k = up[card_type(e[0])] + cell
                        mv[k] = mv[k] + q4
                    else:
                        mv[c_down + cell] = mv[c_down + cell] + q13
                        if over or (e[2] >> me & 1):  # state.knows(seat, e), face down
                            k = known_down[card_type(e[0])] + cell
                            mv[k] = mv[k] + q4
                        else:
                            mv[c_unknown + cell] = mv[c_unknown + cell] + q13
                if shown:  # the face-up cards' Strength (0 without any)
                    mv[c_shown + cell] = st.strength_shown(i, j) / 30
        mover = st.to_move()
        mv[sc["to-move-is-me"]] = float(mover == me)
        if mover is not None:
            mv[sc[f"to-move:+{(mover - me) % n}"]] = 1.0
        mv[sc["round"]] = st.round / 7
        phase = st.phase
        mv[sc["cards-left"]] = (st.left if phase == "deploy" else 0) / 2
        mv[sc["teams"]] = float(st.teams)
        got = sc.get(f"players:{n}")
        if got is not None:
            mv[got] = 1.0
        got = sc.get(f"phase:{phase}")
        if got is not None:
            mv[got] = 1.0
        pend = st.pending
        if pend:
            got = sc.get(f"pending:{pend['kind']}")
            if got is not None:
                mv[got] = 1.0
            mv[sc["pending-is-me"]] = float(pend["seat"] == me)
            if "bf" in pend:
                mv[sc[f"pending-tile:{st.tiles[pend['bf']]}"]] = 1.0
        if phase == "draft":
            for t in st.offer:
                mv[sc[f"offer:{t}"]] = mv[sc[f"offer:{t}"]] + 1.0
        hand_inc = self.hand_inc
        for c in st.hands[me]:
            t = card_type(c)
            k = sc[f"hand:{t}"]
            mv[k] = mv[k] + hand_inc[t]
        last = st.last_card[me]
        if last:
            got = sc.get(f"last-deployed:{last.split('-')[1]}")
            if got is not None:
                mv[got] = mv[got] + 1.0
        vps = st.vp
        for s in range(n):
            rel = (s - me) % n
            mv[sc[f"hand-size:+{rel}"]] = len(st.hands[s]) / 13
            if vps:
                mv[sc[f"vp:+{rel}"]] = vps[s] / 40
        rk, ru = self.rk, self.ru
        every = st.all_mask
        for cid, known, _, _ in st.removed:
            if known == every or over or (known >> me & 1):  # state.knows_removed(seat, known)
                k = sc[f"removed-known:{card_type(cid)}"]
                mv[k] = mv[k] + rk
            else:
                k = sc["removed-unknown"]
                mv[k] = mv[k] + ru
        res = st.result()
        if res is not None:
            w = res.winner
            won = w is not None and w in (me, partner)
            mv[sc["result:draw" if w is None else ("result:won" if won else "result:lost")]] = 1.0
        np.clip(out, 0.0, 1.0, out=out)
        return out
