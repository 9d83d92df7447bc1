"""Observation tensors built only from ``state.observation(seat)``.

An encoder turns one seat's observation JSON (nothing hidden from that seat, nothing
more) into a flat ``float32`` vector in ``[0, 1]``: ``planes`` (channels over a grid, in
C order) followed by ``vector`` (named scalars). :meth:`Encoder.split` gives both back;
:meth:`Encoder.layout` names every channel and scalar (docs/research.md prints it).

Everything is seen from the viewer: sides are *own* / *enemy* (or, in the clan game,
seats counted clockwise from the viewer) and the board is turned so that the viewer's
baseline is row 0. Counts are divided by a fixed cap and clipped to 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from kassen.engine.errors import KassenError
from kassen.engine.hexgrid import Hex
from kassen.rulesets.registry import get, hook, load_game

JSON = dict[str, Any]


@dataclass(frozen=True)
class Layout:
    channels: tuple[str, ...]
    grid: tuple[int, int]
    scalars: tuple[str, ...]

    @property
    def plane_size(self) -> int:
        return len(self.channels) * self.grid[0] * self.grid[1]

    @property
    def size(self) -> int:
        return self.plane_size + len(self.scalars)


class Encoder:
    """Observation JSON of one seat -> flat float32 tensor."""

    game_id = ""

    def __init__(self, channels: Sequence[str], grid: tuple[int, int], scalars: Sequence[str]) -> None:
        self.layout = Layout(tuple(channels), grid, tuple(scalars))
        self.ch = {n: i for i, n in enumerate(self.layout.channels)}
        self.sc = {n: i for i, n in enumerate(self.layout.scalars)}
        if len(self.ch) != len(channels) or len(self.sc) != len(scalars):
            raise AssertionError(f"{self.game_id}: duplicate channel or scalar names")

    @property
    def size(self) -> int:
        return self.layout.size

    @property
    def shape(self) -> tuple[int]:
        return (self.layout.size,)

    def split(self, flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(planes[C, H, W], vector[V])`` views of a flat observation."""
        lay = self.layout
        planes = flat[: lay.plane_size].reshape(len(lay.channels), *lay.grid)
        return planes, flat[lay.plane_size:]

    def encode(self, obs: JSON) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        planes, vec = self.split(out)
        self.fill(obs, planes, vec)
        np.clip(out, 0.0, 1.0, out=out)
        return out

    def fill(self, obs: JSON, planes: np.ndarray, vec: np.ndarray) -> None:
        raise NotImplementedError

    # helpers
    def _set(self, vec: np.ndarray, name: str, value: float, cap: float = 1.0) -> None:
        i = self.sc.get(name)
        if i is not None:
            vec[i] += value / cap


def encoder(game_id: str) -> Encoder:
    """The encoder of a game id (built once)."""
    return _encoder(game_id)


@cache
def _encoder(gid: str) -> Encoder:
    env = get(gid).env
    if env is None:
        raise KassenError(f"no observation encoder for the game {gid!r} (its spec has no env)")
    enc: Encoder = hook(env.encoder)(gid)
    return enc


# ----------------------------------------------------------------- C&C Samurai
CC_DECISIONS = ("play", "dragon", "turncoat", "dloh", "order", "move", "battle", "combat", "retreat", "lretreat",
                "pick", "loh", "end")
CC_STEPS = ("react", "prep", "after_att", "after_def", "hollow", "inspire", "flags", "gain", "bonus", "back",
            "wise", "wise-pick", "keep", "discard", "replenish")
CC_FACES = ("circle", "triangle", "square", "flag", "honor", "swords")
CC_LEADERS = ("foot", "mounted", "commander")
CC_SIDES = ("red", "blue")


class CCEncoder(Encoder):
    """C&C Samurai: planes over the hex board in offset coordinates (11 rows x 13 columns: a
    row's hexes left to right; the rows of 12 hexes leave their last cell empty), turned 180
    degrees for the top player."""

    def __init__(self, gid: str) -> None:
        from kassen.rulesets.cc_samurai.board import board
        from kassen.rulesets.cc_samurai.dragons import WINDOWS

        self.game_id = gid
        game = load_game(gid)
        t = game.tables  # type: ignore[attr-defined]
        self.b = board()
        #: a hex is at (x, row) in doubled-width coordinates (x = 0..xs-1, every other x on a row);
        #: the grid keeps one column per hex of a row: column x // 2 (offset coordinates)
        self.xs = 2 * self.b.width + 1
        self.rows, self.cols = self.b.rows, self.xs // 2 + 1
        self.unit_types = sorted(t.units)
        self.max_blocks = max(u.blocks for u in t.units.values())
        self.terrains = sorted(s for s in t.terrain if s != "countryside")
        self.cmd = sorted(t.command)
        self.copies = {s: c.copies for s, c in t.command.items()}
        self.dragon = sorted(t.dragon)
        self.windows = tuple(WINDOWS)
        self.n_cmd_cards = len(t.command_ids)
        self.n_dragon_cards = len(t.dragon_ids)
        ch = ["board"]
        ch += [f"unit:{side}:{u}" for side in ("own", "enemy") for u in self.unit_types]
        ch += [f"leader:{side}:{k}" for side in ("own", "enemy") for k in CC_LEADERS]
        ch += ["lone-leader:own", "lone-leader:enemy"]
        ch += [f"terrain:{s}" for s in self.terrains]
        ch += ["tent:own", "tent:enemy"]
        ch += ["objective:held-own", "objective:held-enemy", "objective:unheld"]
        ch += ["section:left", "section:center", "section:right"]
        ch += ["ordered", "ordered-leader", "pending:att", "pending:tgt", "pending:at"]
        sc = ["to-move-is-me", "active-is-me", "turn", "honor:own", "honor:enemy", "pool", "banners:own",
              "banners:enemy", "victory-banners", "command:own", "command:enemy", "hand:own", "hand:enemy",
              "dragons:own", "dragons:enemy", "command-deck", "dragon-deck", "command-discard", "dragon-tokens",
              "result:won", "result:lost", "result:draw", "max-ignore", "flags", "retreat-left"]
        sc += [f"hand:{s}" for s in self.cmd]
        sc += [f"my-dragons:{s}" for s in self.dragon]
        sc += [f"played:{s}" for s in self.cmd]
        sc += [f"dragons-in-play:{s}" for s in self.dragon]
        sc += [f"recent-discard:{s}" for s in self.cmd]
        sc += [f"recent-dragon-discard:{s}" for s in self.dragon]
        sc += [f"drawn:{s}" for s in self.cmd]
        sc += [f"decision:{d}" for d in CC_DECISIONS]
        sc += [f"step:{d}" for d in CC_STEPS]
        sc += [f"window:{w}" for w in self.windows]
        sc += [f"faces:{f}" for f in CC_FACES]
        super().__init__(ch, (self.rows, self.cols), sc)
        #: the board's hexes, in board order
        self._cells = list(self.b.cells)
        #: the board and section planes, which depend only on the viewer and the bottom side
        self._static: dict[tuple[int, int], np.ndarray] = {}

    def _rc(self, name: str, flip: bool) -> tuple[int, int]:
        return self._hex_rc(self.b.parse(name), flip)

    def _hex_rc(self, h: Hex, flip: bool) -> tuple[int, int]:
        """The grid cell (row, column) of hex ``h``, turned for the top player (``flip``)."""
        x, r = self.b.xr(h)
        if flip:
            return self.rows - 1 - r, (self.xs - 1 - x) // 2
        return r, x // 2

    def pending_cells(self, pending: dict[str, Any], flip: bool) -> list[tuple[str, int, int]]:
        """The ``pending:*`` cells of a pending decision: (its key, row, column) of every hex
        named by ``att``, ``tgt`` or ``at`` (``+`` joins several; a name off the board is skipped),
        or held there as a hex (the state's own task, ``CCState.pending()``)."""
        out: list[tuple[str, int, int]] = []
        for key in ("att", "tgt", "at"):
            val = pending.get(key)
            if isinstance(val, int):
                out.append((key, *self._hex_rc(val, flip)))
            elif isinstance(val, str):
                for name in val.split("+"):
                    try:
                        r, c = self._rc(name, flip)
                    except KassenError:
                        continue
                    out.append((key, r, c))
        return out

    def static_planes(self, my: int, bottom: int) -> np.ndarray:
        """The ``board`` and ``section:*`` planes of viewer ``my`` (built once per viewer and bottom)."""
        from kassen.rulesets.cc_samurai.board import sections_of

        static = self._static.get((my, bottom))
        if static is None:
            ch = self.ch
            flip = my != bottom
            static = np.zeros((len(self.layout.channels), *self.layout.grid), np.float32)
            for h in self._cells:
                r, c = self._hex_rc(h, flip)
                static[ch["board"], r, c] = 1
                for sec in sections_of(h, my, bottom):
                    static[ch[f"section:{sec}"], r, c] = 1
            self._static[(my, bottom)] = static
        return static

    def fill(self, obs: JSON, planes: np.ndarray, vec: np.ndarray) -> None:
        me = obs.get("you") or "red"
        my = CC_SIDES.index(me)
        en = CC_SIDES[1 - my]
        bottom = CC_SIDES.index(obs.get("bottom", "red"))
        flip = my != bottom
        rel = {me: "own", en: "enemy"}
        ch = self.ch
        planes += self.static_planes(my, bottom)
        board = obs["board"]
        for u in board["units"]:
            r, c = self._rc(u["hex"], flip)
            side = rel[u["side"]]
            k = ch.get(f"unit:{side}:{u['type']}")
            if k is not None:
                planes[k, r, c] = u["blocks"] / self.max_blocks
            if u.get("leader"):
                planes[ch[f"leader:{side}:{u['leader']}"], r, c] = 1
        for ld in board["leaders"]:
            r, c = self._rc(ld["hex"], flip)
            side = rel[ld["side"]]
            planes[ch[f"leader:{side}:{ld['kind']}"], r, c] = 1
            planes[ch[f"lone-leader:{side}"], r, c] = 1
        for name, slug in board["terrain"].items():
            k = ch.get(f"terrain:{slug}")
            if k is not None:
                r, c = self._rc(name, flip)
                planes[k, r, c] = 1
        for side, name in board["tents"].items():
            r, c = self._rc(name, flip)
            planes[ch[f"tent:{rel[side]}"], r, c] = 1
        for o in obs.get("objectives", []):
            held = o.get("held_by")
            key = "objective:unheld" if held is None else f"objective:held-{rel[held]}"
            for name in o["hexes"]:
                r, c = self._rc(name, flip)
                planes[ch[key], r, c] = 1
        for o in obs.get("orders", []):
            parts = o.split()
            r, c = self._rc(parts[0], flip)
            planes[ch["ordered-leader" if len(parts) > 1 else "ordered"], r, c] = 1
        pend = obs.get("pending") or {}
        for key, r, c in self.pending_cells(pend, flip):
            planes[ch[f"pending:{key}"], r, c] = 1
        s = self._set
        s(vec, "to-move-is-me", float(obs.get("to_move") == me))
        s(vec, "active-is-me", float(obs.get("active") == me))
        s(vec, "turn", obs.get("turn", 0), 100)
        s(vec, "honor:own", obs["honor"][me], 30)
        s(vec, "honor:enemy", obs["honor"][en], 30)
        s(vec, "pool", obs["pool"], 30)
        vb = max(1, obs.get("victory_banners", 1))
        s(vec, "banners:own", max(0, obs["banners"][me]), vb)
        s(vec, "banners:enemy", max(0, obs["banners"][en]), vb)
        s(vec, "victory-banners", vb, 20)
        s(vec, "command:own", obs["command"][me], 10)
        s(vec, "command:enemy", obs["command"][en], 10)
        s(vec, "hand:own", obs["hand_sizes"][me], 10)
        s(vec, "hand:enemy", obs["hand_sizes"][en], 10)
        s(vec, "dragons:own", obs["dragon_counts"][me], 10)
        s(vec, "dragons:enemy", obs["dragon_counts"][en], 10)
        s(vec, "command-deck", obs["command_deck"], self.n_cmd_cards)
        s(vec, "dragon-deck", obs["dragon_deck"], self.n_dragon_cards)
        s(vec, "command-discard", obs["command_discard_size"], self.n_cmd_cards)
        s(vec, "dragon-tokens", obs.get("dragon_tokens", 0), 30)
        res = obs.get("result")
        if res is not None:
            w = res.get("winner")
            s(vec, "result:draw" if w is None else ("result:won" if w == my else "result:lost"), 1)
        for c in obs.get("hand", []):
            s(vec, f"hand:{c['slug']}", 1, self.copies.get(c["slug"], 1))
        for d in obs.get("dragons", []):
            s(vec, f"my-dragons:{d['slug']}", 1, 3)
        if obs.get("played"):
            s(vec, f"played:{obs['played']['slug']}", 1)
        for d in obs.get("dragons_in_play", []):
            s(vec, f"dragons-in-play:{d['slug']}", 1, 2)
        for c in obs.get("command_discard", []):
            s(vec, f"recent-discard:{c['slug']}", 1, 5)
        for d in obs.get("dragon_discard", []):
            s(vec, f"recent-dragon-discard:{d['slug']}", 1, 5)
        for c in obs.get("drawn", []):
            s(vec, f"drawn:{c['slug']}", 1, 2)
        if pend:
            s(vec, f"decision:{pend.get('decision')}", 1)
            if "step" in pend:
                s(vec, f"step:{pend['step']}", 1)
            if "w" in pend:
                s(vec, f"window:{pend['w']}", 1)
            s(vec, "max-ignore", pend.get("max_ignore", 0) or 0, 6)
            s(vec, "flags", pend.get("flags", 0) or 0, 6)
            left = pend.get("left", 0)
            s(vec, "retreat-left", left if isinstance(left, int) else 0, 6)
            for f in pend.get("faces", []) or []:
                s(vec, f"faces:{f}", 1, 8)


# ----------------------------------------------------------------------- clans
CLANS_PHASES = ("draft", "deploy", "ability", "resolve", "sanctuary", "supply", "over")
CLANS_PENDING = ("scout", "shugenja", "general", "sanctuary", "supply")
CLANS_MAX_SEATS = 4


class ClansEncoder(Encoder):
    """The clan card game: "planes" over a (Battlefield tile x side) grid, tiles in the fixed
    order of ``kassen.rulesets.clans.data.TILES``; side 0 is the tile's first side."""

    def __init__(self, gid: str) -> None:
        self.game_id = gid
        from kassen.rulesets.clans.data import CARD_TYPES, TILES

        self.tiles = list(TILES)
        self.types = list(CARD_TYPES)
        self.copies = {s: c for s, (_, _, c) in CARD_TYPES.items()}
        ch = ["in-play", "vp", "resolved", "won"]
        ch += [f"owner:+{k}" for k in range(CLANS_MAX_SEATS)]
        ch += ["partner", "count", "strength-shown", "bonus", "face-down", "face-down-unknown"]
        ch += [f"up:{t}" for t in self.types]
        ch += [f"known-down:{t}" for t in self.types]
        sc = ["to-move-is-me", "pending-is-me", "round", "cards-left", "teams", "result:won", "result:lost",
              "result:draw"]
        sc += [f"players:{n}" for n in (2, 3, 4)]
        sc += [f"to-move:+{k}" for k in range(CLANS_MAX_SEATS)]
        sc += [f"phase:{p}" for p in CLANS_PHASES]
        sc += [f"pending:{p}" for p in CLANS_PENDING]
        sc += [f"pending-tile:{t}" for t in self.tiles]
        sc += [f"offer:{t}" for t in self.tiles]
        sc += [f"hand:{t}" for t in self.types]
        sc += [f"last-deployed:{t}" for t in self.types]
        sc += [f"hand-size:+{k}" for k in range(CLANS_MAX_SEATS)]
        sc += [f"vp:+{k}" for k in range(CLANS_MAX_SEATS)]
        sc += [f"removed-known:{t}" for t in self.types]
        sc += ["removed-unknown"]
        super().__init__(ch, (len(self.tiles), 2), sc)

    def fill(self, obs: JSON, planes: np.ndarray, vec: np.ndarray) -> None:
        ch = self.ch
        seats = obs["seats"]
        n = len(seats)
        me = obs.get("viewer") or 0
        teams = obs.get("teams")
        partner = None
        if teams:
            for team in teams:
                if me in team:
                    partner = next(x for x in team if x != me)

        def rel(seat: int) -> int:
            return (seat - me) % n

        for tile in obs["board"]:
            i = self.tiles.index(tile["tile"])
            outcome = tile.get("outcome")
            for j, side in enumerate(tile["sides"]):
                owner = side["seat"]
                planes[ch["in-play"], i, j] = 1
                planes[ch["vp"], i, j] = tile["vp"] / 6
                planes[ch[f"owner:+{rel(owner)}"], i, j] = 1
                planes[ch["partner"], i, j] = float(owner == partner)
                planes[ch["count"], i, j] = side["count"] / 13
                planes[ch["strength-shown"], i, j] = side["strength_shown"] / 30
                planes[ch["bonus"], i, j] = side["bonus"] / 5
                if outcome is not None:
                    planes[ch["resolved"], i, j] = 1
                    planes[ch["won"], i, j] = float(outcome.get("winner") == owner)
                for card in side["cards"]:
                    if card["up"]:
                        planes[ch[f"up:{card['type']}"], i, j] += 1 / 4
                    else:
                        planes[ch["face-down"], i, j] += 1 / 13
                        if "type" in card:
                            planes[ch[f"known-down:{card['type']}"], i, j] += 1 / 4
                        else:
                            planes[ch["face-down-unknown"], i, j] += 1 / 13
        s = self._set
        s(vec, "to-move-is-me", float(obs.get("to_move") == me))
        if obs.get("to_move") is not None:
            s(vec, f"to-move:+{rel(obs['to_move'])}", 1)
        s(vec, "round", obs.get("round", 0), 7)
        s(vec, "cards-left", obs.get("cards_left_this_turn", 0), 2)
        s(vec, "teams", float(bool(teams)))
        s(vec, f"players:{n}", 1)
        s(vec, f"phase:{obs.get('phase')}", 1)
        pend = obs.get("pending")
        if pend:
            s(vec, f"pending:{pend['decision']}", 1)
            s(vec, "pending-is-me", float(pend.get("seat") == me))
            if pend.get("tile"):
                s(vec, f"pending-tile:{pend['tile']}", 1)
        for t in obs.get("offer", []):
            s(vec, f"offer:{t}", 1)
        for c in obs.get("hand", []):
            s(vec, f"hand:{c['slug']}", 1, self.copies.get(c["slug"], 1))
        last = obs.get("last_deployed")
        if last:
            s(vec, f"last-deployed:{last.split('-')[1]}", 1)
        for k, name in enumerate(seats):
            s(vec, f"hand-size:+{rel(k)}", obs["hand_sizes"].get(name, 0), 13)
            if obs.get("vp"):
                s(vec, f"vp:+{rel(k)}", obs["vp"].get(name, 0), 40)
        for r in obs.get("removed", []):
            if "type" in r:
                s(vec, f"removed-known:{r['type']}", 1, 4 * CLANS_MAX_SEATS)
            else:
                s(vec, "removed-unknown", 1, 13 * CLANS_MAX_SEATS)
        res = obs.get("result")
        if res is not None:
            w = res.get("winner")
            won = w is not None and w in (me, partner)
            s(vec, "result:draw" if w is None else ("result:won" if won else "result:lost"), 1)


# ----------------------------------------------------------- An Honourable Victory!
HV_DECISIONS = ("fire", "alloc", "reroll", "daimyo", "breakoff", "move", "act2", "react", "recoiled")
HV_CLASSES = ("light-foot", "foot", "mounted")
HV_WEAPONS = ("bow", "firearm", "improvised", "spear", "hand-to-hand", "long-spear", "mounted")
HV_FORMS = ("attack", "defensive", "open")
HV_STATUS = ("table", "reserve", "routed")
HV_QUALITY = ("green", "seasoned", "veteran")
HV_FEATURES = ("hill", "woods", "village", "rough", "impassable", "bog")
HV_DIRS = "NESW"
HV_ROWS, HV_COLS = 5, 9
HV_MAX_STANDS = 9


def hv_cell(zone: str, flip: bool, width: int) -> tuple[int, int] | None:
    """A zone's (row, column) on the HV planes as ``flip``'s seat sees the table, or None off them.

    >>> hv_cell("A1", False, 5), hv_cell("A1", True, 5)
    ((1, 0), (3, 4))
    """
    from kassen.rulesets.honourable_victory.table import parse_zone

    p = parse_zone(zone)
    if p is None:
        return None
    c, r = p
    if flip:
        r, c = HV_ROWS - 1 - r, width - 1 - c
    if not (0 <= r < HV_ROWS and 0 <= c < HV_COLS):
        return None
    return r, c


class HVEncoder(Encoder):
    """An Honourable Victory!: planes over the zones (5 rows: reserves, three table rows,
    reserves; 9 columns, the widest table), turned for North; a table of unit slots."""

    def __init__(self, gid: str) -> None:
        from kassen.envs.actions import action_index

        self.game_id = gid
        acts = action_index(gid).actions
        self.m = max(int(a.split()[0][1:]) for a in acts if a[0] == "S" and a.split()[0][1:].isdigit())
        ch = ["table", "reserve:own", "reserve:enemy", "escarpment"]
        ch += [f"terrain:{f}" for f in HV_FEATURES]
        for side in ("own", "enemy"):
            ch += [f"stands:{side}:{c}" for c in HV_CLASSES]
            ch += [f"units:{side}", f"hits:{side}", f"engaged:{side}", f"daimyo:{side}"]
            ch += [f"facing:{side}:{d}" for d in ("forward", "right", "back", "left")]
            ch += [f"formation:{side}:{f}" for f in HV_FORMS]
        sc = ["to-move-is-me", "initiative-is-me", "turn", "turn-limit", "width", "limit",
              "result:won", "result:lost", "result:draw", "declared-fire",
              "attack:cv", "attack:stands", "attack:mine"]
        sc += [f"attack:die{k}" for k in range(1, 7)]
        for side in ("own", "enemy"):
            sc += [f"tally:{side}", f"start-units:{side}", f"third-value:{side}", f"breakpoint:{side}",
                   f"uncontested:{side}"]
        sc += [f"decision:{d}" for d in HV_DECISIONS]
        self.slot_fields = (["present", "stands", "start", "col", "row", "hits", "fired", "reacted", "mounted",
                             "engaged", "pending-unit", "pending-target", "attacker", "attacked"]
                            + [f"facing:{d}" for d in ("forward", "right", "back", "left")]
                            + [f"formation:{f}" for f in HV_FORMS] + [f"status:{x}" for x in HV_STATUS]
                            + [f"quality:{q}" for q in HV_QUALITY] + [f"class:{c}" for c in HV_CLASSES]
                            + [f"weapon:{w}" for w in HV_WEAPONS])
        for side in ("own", "enemy"):
            for k in range(1, self.m + 1):
                sc += [f"{side}{k}:{f}" for f in self.slot_fields]
        super().__init__(ch, (HV_ROWS, HV_COLS), sc)

    def fill(self, obs: JSON, planes: np.ndarray, vec: np.ndarray) -> None:

        ch = self.ch
        # the HV observation does not name its viewer: observe() adds it as "_seat"
        me = int(obs.get("_seat") or 0)
        flip = me == 1
        width = obs["width"]
        prefix = "SN"

        def rc(z: str) -> tuple[int, int] | None:
            return hv_cell(z, flip, width)

        def side_of(uid: str) -> str:
            return "own" if uid[:1] == prefix[me] else "enemy"

        def reldir(d: str) -> int:
            k = HV_DIRS.index(d)
            return (k - (2 if flip else 0)) % 4

        for z in obs["zones"]:
            p = rc(z)
            if p:
                planes[ch["table"], p[0], p[1]] = 1
        for s_, zones in enumerate(obs["reserve_zones"]):
            for z in zones:
                p = rc(z)
                if p:
                    planes[ch["reserve:own" if s_ == me else "reserve:enemy"], p[0], p[1]] = 1
        for z, feats in obs.get("terrain", {}).items():
            p = rc(z)
            if p:
                for f in feats:
                    k = ch.get(f"terrain:{f}")
                    if k is not None:
                        planes[k, p[0], p[1]] = 1
        for e in obs.get("escarpments", []):
            for z in e:
                p = rc(z)
                if p:
                    planes[ch["escarpment"], p[0], p[1]] = 1
        for s_, z in enumerate(obs["board"].get("daimyo", [])):
            p = rc(z) if z else None
            if p:
                planes[ch["daimyo:own" if s_ == me else "daimyo:enemy"], p[0], p[1]] = 1
        pend = obs.get("pending") or {}
        att = pend.get("attack") or {}
        limit = max(1, obs.get("limit", 4))
        s = self._set
        for u in obs["board"]["units"]:
            side = "own" if u["side"] == me else "enemy"
            p = rc(u["zone"]) if u.get("zone") else None
            fd = ("forward", "right", "back", "left")[reldir(u["facing"])]
            if p and u["status"] != "routed":
                r, c = p
                if u["class"] in HV_CLASSES:
                    planes[ch[f"stands:{side}:{u['class']}"], r, c] += u["stands"] / (HV_MAX_STANDS * limit)
                planes[ch[f"units:{side}"], r, c] += 1 / limit
                planes[ch[f"hits:{side}"], r, c] += u["hits"] / (HV_MAX_STANDS * limit)
                planes[ch[f"engaged:{side}"], r, c] += float(bool(u["engaged"])) / limit
                planes[ch[f"facing:{side}:{fd}"], r, c] += 1 / limit
                if u["formation"] in HV_FORMS:
                    planes[ch[f"formation:{side}:{u['formation']}"], r, c] += 1 / limit
            uid = u["id"]
            num = uid[1:]
            if not num.isdigit() or not 1 <= int(num) <= self.m:
                continue
            slot = f"{side_of(uid)}{int(num)}"
            s(vec, f"{slot}:present", 1)
            s(vec, f"{slot}:stands", u["stands"], HV_MAX_STANDS)
            s(vec, f"{slot}:start", u["start"], HV_MAX_STANDS)
            if p:
                s(vec, f"{slot}:row", p[0], HV_ROWS - 1)
                s(vec, f"{slot}:col", p[1], HV_COLS - 1)
            s(vec, f"{slot}:hits", u["hits"], HV_MAX_STANDS)
            for flag in ("fired", "reacted", "mounted"):
                s(vec, f"{slot}:{flag}", float(bool(u[flag])))
            s(vec, f"{slot}:engaged", len(u["engaged"]), 4)
            s(vec, f"{slot}:facing:{fd}", 1)
            s(vec, f"{slot}:formation:{u['formation']}", 1)
            s(vec, f"{slot}:status:{u['status']}", 1)
            s(vec, f"{slot}:quality:{u.get('quality')}", 1)
            s(vec, f"{slot}:class:{u['class']}", 1)
            s(vec, f"{slot}:weapon:{u['weapon']}", 1)
            s(vec, f"{slot}:pending-unit", float(pend.get("unit") == uid))
            s(vec, f"{slot}:pending-target", float(pend.get("target") == uid))
            s(vec, f"{slot}:attacker", float(att.get("a") == uid))
            s(vec, f"{slot}:attacked", float(att.get("t") == uid))
        s(vec, "to-move-is-me", float(obs.get("to_move") == me))
        s(vec, "initiative-is-me", float(obs.get("initiative") == me))
        tl = max(1, obs.get("turn_limit", 12))
        s(vec, "turn", obs.get("turn", 0), tl)
        s(vec, "turn-limit", tl, 100)
        s(vec, "width", width, HV_COLS)
        s(vec, "limit", limit, 9)
        s(vec, "declared-fire", len(obs.get("declared", [])), 10)
        if att:
            s(vec, "attack:cv", att.get("cv", 0), 6)
            s(vec, "attack:stands", att.get("stands", 0), HV_MAX_STANDS)
            s(vec, "attack:mine", float(side_of(att.get("a", "")) == "own"))
            for d in att.get("dice", []):
                s(vec, f"attack:die{d}", 1, 12)
        for s_ in (0, 1):
            side = "own" if s_ == me else "enemy"
            s(vec, f"tally:{side}", obs["tally"][s_], 20)
            s(vec, f"start-units:{side}", obs["start_units"][s_], 20)
            s(vec, f"third-value:{side}", obs["third_value"][s_], 20)
            s(vec, f"breakpoint:{side}", obs["breakpoint"][s_], 20)
            s(vec, f"uncontested:{side}", obs["uncontested"][s_], 20)
        if pend.get("decision"):
            s(vec, f"decision:{pend['decision']}", 1)
        res = obs.get("result")
        if res is not None:
            w = res.get("winner")
            s(vec, "result:draw" if w is None else ("result:won" if w == me else "result:lost"), 1)


def observe(state: Any, seat: int) -> np.ndarray:
    """The tensor of ``seat``: :func:`encoder` applied to ``state.observation(seat)`` only."""
    obs = state.observation(seat)
    env = get(state.game.id).env
    if env is not None and env.seat_in_observation:
        obs = {**obs, "_seat": seat}
    return encoder(state.game.id).encode(obs)
