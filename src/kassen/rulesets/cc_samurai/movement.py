# mypy: disable-error-code="misc"
# (the methods type ``self`` as the whole CCState, which mypy allows only for supertypes: "misc")
"""Phase 3, Movement: movement limits, terrain stops, exits, and the movement search (reused
from the parent state when nothing near the piece changed).

A rule mixin of ``CCState`` (state.py); the data it works on: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy_extensions import trait

from kassen.engine.events import LazyText
from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai import dragons
from kassen.rulesets.cc_samurai.board import (
    HEX_ID,
    HEXES,
    IS_HALF,
    NAME_OF,
    NAMES,
    NBR_IDS,
    NCELLS,
    OUT2_IDS,
    Unit,
)
from kassen.rulesets.cc_samurai.common import (
    JSON,
    LEADER_MOVE,
    LEADER_NAME,
    NO_MOVES,
    CCStateData,
    Dests,
    _diff_hexes,
    as_json,
)
from kassen.rulesets.cc_samurai.facts import UnitType
from kassen.rulesets.cc_samurai.tasks import MoveTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


#: hex -> ``move F3 `` and ``move F3 leader `` (a destination follows)
MOVE_PRE: dict[Hex, str] = {h: f"move {n} " for h, n in NAMES.items()}
MOVE_LEADER_PRE: dict[Hex, str] = {h: f"move {n} leader " for h, n in NAMES.items()}
#: hex -> the key of its unit's and of its Leader's movement search in ``_mv``: strings, whose hash
#: is computed once (a tuple key's is computed again at every look-up)
UNIT_KEY: dict[Hex, str] = {h: "u" + n for h, n in NAMES.items()}
LEADER_KEY: dict[Hex, str] = {h: "l" + n for h, n in NAMES.items()}


def _unit_move_text(who: str, ut: UnitType, with_kind: str | None, frm: str, to: str,
                    join_kind: str | None) -> LazyText:
    """``<side> <unit>[ with its <Leader>] moves <frm> to <to>[ and joins the <Leader>]``, written
    only when read (most moves of a playout are never narrated)."""
    def text() -> str:
        with_ld = "" if with_kind is None else f" with its {LEADER_NAME[with_kind]}"
        joined = "" if join_kind is None else f" and joins the {LEADER_NAME[join_kind]}"
        return f"{who} {ut.name}{with_ld} moves {frm} to {to}{joined}"
    return text


@trait
class MovementRules(CCStateData):
    def move_limits(self: CCState, u: Unit) -> tuple[int, int]:
        """(hexes it may move, most hexes moved that still allow battle) this turn."""
        ut = self.ut(u)
        move, bmove = ut.move, ut.battle_move
        ti = self.ti
        spec: JSON | None = ti.get("spec")  # typed: a native dict get below, not a generic call
        effect = spec.get("effect") if spec else None
        if not effect and not ti["effects"]:
            return move, bmove  # no card effect and no Dragon card in play
        if effect and f"u:{u.uid}" in self.ti["orders"]:
            if effect == "charge" and u.type == "SSpC":
                move, bmove = 3, 3
            elif effect == "onslaught" and not ut.cavalry and ut.symbol in ("triangle", "square"):
                move, bmove = 2, 2
            elif effect == "serpent":
                move = min(move, 1)
            elif effect == "hold":
                move = 0
        if f"u:{u.uid}" in self.ti["orders"] and u.side == self.active and effect != "hold":
            if not ut.cavalry and not ut.bodyguard and dragons.has_effect(self, "move-as-the-wind", u.side):
                move, bmove = move + 1, bmove + 1
            if dragons.has_effect(self, "forced-march", u.side, u.uid):
                move += 1
            if dragons.has_effect(self, "spirit-of-the-wind", u.side, u.uid):
                move, bmove = move + 1, bmove + 1
        return move, bmove

    def _same_move_ctx(self: CCState) -> bool:
        """Whether the movement context is the parent's (element by element: identical, or else equal)."""
        return self._prev_units is not None and self._prev_ctx == self._move_ctx()

    def _move_ctx(self: CCState) -> tuple[Any, ...]:
        """What a movement search depends on besides the pieces near it (compared by identity)."""
        ti = self.ti
        spec: JSON | None = ti.get("spec")
        return (spec, spec.get("effect") if spec else None, len(ti["orders"]), len(ti["effects"]),
                self.active, self.terrain)

    def _reused_search(self: CCState, key: str, h: Hex, same_ctx: bool | None = None) -> Dests | None:
        """The parent state's search for ``key`` when nothing it looked at has changed since:
        the same movement context (``same_ctx``, when the caller compared it), and every hex whose
        pieces differ farther than it looked."""
        prev = self._mv_prev.get(key)
        if prev is None or self._prev_units is None:
            return None
        if same_ctx is None:
            same_ctx = self._same_move_ctx()
        if not same_ctx:
            return None
        changed = self._changed
        if changed is None:
            changed = self._changed = _diff_hexes(self._prev_units, self.units) + _diff_hexes(
                self._prev_leaders, self.leaders)
        radius = prev.radius
        hx, hr = h
        for cx, cr in changed:
            dr = abs(cr - hr)
            if dr + max(0, (abs(cx - hx) - dr) // 2) <= radius:  # HexBoard.distance
                return None
        return prev

    def _unit_moves(self: CCState, h: Hex, same_ctx: bool | None = None) -> Dests:
        """Destinations (hex name or 'off') of the unit at ``h`` -> hexes moved."""
        key = UNIT_KEY[h]
        mv = self._mv
        got = mv.get(key)
        if got is None:
            got = self._reused_search(key, h, same_ctx)
            if got is None:
                got = self._search_unit_moves(h)
            if mv is NO_MOVES:
                mv = self._mv = {}
            mv[key] = got
        return got

    def _search_unit_moves(self: CCState, h: Hex) -> Dests:
        units, leaders = self.units, self.leaders
        u = units[h]
        ut = self.ut(u)
        allowance = self.move_limits(u)[0]
        has_leader = h in leaders
        # a Leader never enters a half-hex, so neither does a unit carrying one
        carries = has_leader and f"l:{leaders[h].lid}" not in self.ti["orders"]
        through = bool(self.ti["effects"]) and dragons.has_effect(self, "spirit-of-the-wind", u.side, u.uid)
        terl = self._terl
        if terl is None:
            terl = self._terrain_list()
        cavalry, side = ut.cavalry, u.side
        found = Dests(allowance)
        out = found.to  # destination -> hexes moved
        # by hex ids (board.HEX_ID): the tables are lists; the state's maps are still looked up by hex
        hexes, names, nbrs, half = HEXES, NAME_OF, NBR_IDS, IS_HALF
        hid = HEX_ID[h]
        frontier = [hid]
        seen = [False] * NCELLS
        seen[hid] = True
        exits = self.exits[side]
        out2 = OUT2_IDS[hid]
        for step in range(1, allowance + 1):
            nxt: list[int] = []
            for cur in frontier:
                if exits and hexes[cur] in exits and "off" not in out:
                    out["off"] = step
                for ni in (out2[cur] if step == 2 else nbrs[cur]):
                    if seen[ni]:
                        continue
                    ter = terl[ni]
                    if ter.impassable or (carries and half[ni]):
                        continue
                    n = hexes[ni]
                    if through and (n in units or n in leaders):
                        # Spirit of the Wind: through other units, never ending there
                        seen[ni] = True
                        if not ter.stop:
                            nxt.append(ni)
                        continue
                    if n in units:
                        continue
                    ld = leaders.get(n)
                    if ld is not None:
                        if ld.side != side or has_leader:
                            continue
                        if cavalry and ld.kind != "mounted":
                            continue
                        # joins the lone Leader and stops
                        seen[ni] = True
                        out[names[ni]] = step
                        continue
                    seen[ni] = True
                    out[names[ni]] = step
                    if not ter.stop:
                        nxt.append(ni)
            frontier = nxt
        return found

    def _leader_moves(self: CCState, h: Hex, same_ctx: bool | None = None) -> Dests:
        """Destinations of the Leader at ``h`` moving on his own."""
        key = LEADER_KEY[h]
        mv = self._mv
        got = mv.get(key)
        if got is None:
            got = self._reused_search(key, h, same_ctx)
            if got is None:
                got = self._search_leader_moves(h)
            if mv is NO_MOVES:
                mv = self._mv = {}
            mv[key] = got
        return got

    def _search_leader_moves(self: CCState, h: Hex) -> Dests:
        ld = self.leaders[h]
        allowance = LEADER_MOVE[ld.kind]
        if self.ti["spec"].get("effect") == "serpent":
            allowance = min(allowance, 1)  # Serpent Command: the group moves 1 hex (R28)
        units, leaders, utypes = self.units, self.leaders, self.t.units
        terl = self._terl
        if terl is None:
            terl = self._terrain_list()
        side, mounted = ld.side, ld.kind == "mounted"
        found = Dests(allowance)
        out = found.to  # destination -> hexes moved
        hexes, names, nbrs, half = HEXES, NAME_OF, NBR_IDS, IS_HALF
        hid = HEX_ID[h]
        seen = [False] * NCELLS
        seen[hid] = True
        frontier = [hid]
        base = self.baseline_row(side)
        out2 = OUT2_IDS[hid]
        for step in range(1, allowance + 1):
            nxt: list[int] = []
            for cur in frontier:
                if hexes[cur][1] == base and "off" not in out:
                    out["off"] = step
                for ni in (out2[cur] if step == 2 else nbrs[cur]):
                    if seen[ni] or half[ni]:
                        continue
                    ter = terl[ni]
                    if ter.impassable:
                        continue
                    n = hexes[ni]
                    u = units.get(n)
                    other = leaders.get(n)
                    if (u is not None and u.side != side) or (other is not None and other.side != side):
                        continue
                    seen[ni] = True
                    if other is None:
                        if u is None:
                            out[names[ni]] = step
                        else:
                            put = utypes[u.type]
                            if not put.bodyguard and (mounted or not put.cavalry):
                                out[names[ni]] = step
                    if not ter.stop:
                        nxt.append(ni)
            frontier = nxt
        return found

    def _mover_actions(self: CCState, side: int) -> list[str]:
        out: list[str] = []
        ti = self.ti
        # typed: native list and dict operations below (the turn info's values are ``Any``)
        moved: dict[str, int] = ti["moved"]
        orders: list[str] = ti["orders"]
        units, utypes = self.units, self.t.units
        # the movement context is compared with the parent's once for all the pieces (nothing
        # below changes it)
        same_ctx = bool(self._mv_prev) and self._same_move_ctx()
        for key in orders:
            if key in moved:
                continue
            h = self.key_hex(key)
            if h is None:
                continue
            if key[0] == "u":
                if utypes[units[h].type].bodyguard:
                    continue
                dests = self._unit_moves(h, same_ctx)
                acts = dests.acts
                if acts is None:
                    pre = MOVE_PRE[h]
                    acts = dests.acts = [pre + d for d in dests.to]
            else:
                dests = self._leader_moves(h, same_ctx)
                acts = dests.acts
                if acts is None:
                    # the same search is reused only while the hex's unit is (a unit here: split)
                    pre = MOVE_LEADER_PRE[h] if h in units else MOVE_PRE[h]
                    acts = dests.acts = [pre + d for d in dests.to]
            out += acts
        out.sort()
        return out

    def _legal_move(self: CCState, task: MoveTask) -> list[str]:
        acts = self._mover_actions(task["seat"])
        acts.extend(dragons.actions(self, task["seat"], "movement"))
        acts.append("end-move")
        return acts

    def _auto_move(self: CCState, task: MoveTask) -> bool:
        acts = self._mover_actions(task["seat"])
        if acts:
            # a new list: completed, not copied
            acts.extend(dragons.actions(self, task["seat"], "movement"))
            acts.append("end-move")
            self._legal = acts
            return False
        self.stack[-1] = as_json({"t": "battle", "seat": task["seat"]})
        return True

    def _act_move(self: CCState, task: MoveTask, action: str) -> None:
        side = task["seat"]
        if action == "end-move":
            self.stack[-1] = as_json({"t": "battle", "seat": side})
            return
        if action.startswith("dragon "):
            dragons.play(self, side, action)
            return
        parts = action.split()
        h = self.b.parse(parts[1])
        self.own_pieces()
        is_leader = len(parts) == 4 or h not in self.units
        dest_txt = parts[-1]
        if is_leader:
            ld = self.leaders[h]
            key = f"l:{ld.lid}"
            lsearch = self._mv_prev.get(LEADER_KEY[h])  # the parent's, which listed this action
            if lsearch is None:
                lsearch = self._leader_moves(h)
            steps = lsearch.to[dest_txt]
            self.ti["moved"] = {**self.ti["moved"], key: steps}  # replaced, never changed in place
            del self.leaders[h]
            if dest_txt == "off":
                self.own_logs()
                self.removed.append({"side": side, "piece": ld.lid, "cause": "off", "type": ld.kind})
                self.say("leader_off", f"{self.side_name(side)} {LEADER_NAME[ld.kind]} leaves the battlefield from {self.name(h)}",
                         hex=self.name(h))
                short = self.lose_honor(side, 3, "a Leader left the battlefield")
                if short:
                    self._push_loh(side, short, h, None, None)
                return
            d = self.b.parse(dest_txt)
            self.leaders[d] = ld
            joined = f" and joins the {self.ut(self.units[d]).name}" if d in self.units else ""
            self.say("move", f"{self.side_name(side)} {LEADER_NAME[ld.kind]} moves {self.name(h)} to {self.name(d)}{joined}",
                     frm=self.name(h), to=self.name(d))
            self._insult_window(side, ld.lid, h, d, None)
            return
        u = self.units[h]
        key = f"u:{u.uid}"
        search = self._mv_prev.get(UNIT_KEY[h])
        if search is None:
            search = self._unit_moves(h)
        steps = search.to[dest_txt]
        self.ti["moved"] = {**self.ti["moved"], key: steps}
        uld = self.leaders.get(h)
        carry = uld is not None and f"l:{uld.lid}" not in self.ti["orders"]
        del self.units[h]
        if carry:
            assert uld is not None
            del self.leaders[h]
        if dest_txt == "off":
            self.own_logs()
            self.removed.append({"side": side, "piece": u.uid, "cause": "exit", "type": u.type})
            self.say("exit", f"{self.unit_label(u)} leaves the battlefield from {self.name(h)}", hex=self.name(h))
            if carry and uld is not None:
                self.removed.append({"side": side, "piece": uld.lid, "cause": "exit", "type": uld.kind})
            self.award_banner(side, self.exit_banners, "a unit left by an exit hex", objective=True)
            return
        d = self.b.parse(dest_txt)
        self.units[d] = u
        if carry and uld is not None:
            self.leaders[d] = uld
        if self.ter(d).forbids_battle_on_entry(self.ut(u).cavalry):
            self.ti["no_battle"] = [*self.ti["no_battle"], u.uid]
        jl = None if carry else self.leaders.get(d)
        frm, to = self.name(h), self.name(d)
        self.say("move", _unit_move_text(self.side_name(u.side), self.ut(u),
                                         uld.kind if carry and uld is not None else None,
                                         frm, to, None if jl is None else jl.kind),
                 frm=frm, to=to, unit=u.uid)
        if carry and uld is not None:
            self._insult_window(side, uld.lid, h, d, u.uid)

    def _insult_window(self: CCState, side: int, lid: str, frm: Hex, to: Hex, uid: str | None) -> None:
        """Insult is played when the enemy moves an ordered Leader."""
        self.stack.append(as_json({"t": "dragon", "seat": 1 - side, "w": "insult", "lid": lid,
                                   "frm": self.name(frm), "to": self.name(to), "uid": uid}))
