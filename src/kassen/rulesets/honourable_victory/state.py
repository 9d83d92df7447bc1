"""Rules of An Honourable Victory! as a state machine (seed 001).

``pend`` says which decision is pending (``step``) and whose it is (``seat``).
Automatic steps (initiative, dice, hit markers, losses, victory) run until a
player must decide. Section names in comments and tests refer to the rules text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement
from math import ceil
from typing import TYPE_CHECKING, Any

from kassen.engine.errors import FormatError, IllegalActionError
from kassen.engine.events import Event, plural
from kassen.engine.protocol import Result, State
from kassen.engine.rng import Rng
from kassen.rulesets.honourable_victory.data import Tables
from kassen.rulesets.honourable_victory.table import DIRS, FACETS, FORWARD, Table, opposite

if TYPE_CHECKING:
    from kassen.rulesets.honourable_victory.game import HonourableVictoryGame

JSON = dict[str, Any]
SIDES = ("South", "North")
FORMS = ("attack", "defensive", "open")
#: Appendix B: the highest die that hits when firing, and that passes the test to engage
FIRE_HIT = {"green": 1, "seasoned": 2, "veteran": 3}
CLASS_NAME = {"light-foot": "Light Foot", "foot": "Foot", "mounted": "Mounted"}


class Unit:
    """One unit: its stands, place, facing, formation and markers."""

    __slots__ = ("uid", "side", "name", "cls", "weapon", "stands", "start", "zone", "facing", "form",
                 "hits", "fired", "reacted", "mounted", "quality", "status")

    def __init__(self, uid: str, side: int, name: str, cls: str, weapon: str, stands: int, zone: str,
                 facing: int, form: str, quality: str = "seasoned", status: str = "table") -> None:
        self.uid, self.side, self.name, self.cls, self.weapon = uid, side, name, cls, weapon
        self.stands = self.start = stands
        self.zone, self.facing, self.form = zone, facing, form
        self.hits = 0
        self.fired = False      # red marker
        self.reacted = False    # yellow marker
        self.mounted = cls == "mounted"
        self.quality = quality
        #: "table", "reserve" or "routed" (withdrawn units count as routed)
        self.status = status

    def copy(self) -> Unit:
        u = Unit.__new__(Unit)
        for k in Unit.__slots__:
            setattr(u, k, getattr(self, k))
        return u

    def to_json(self) -> JSON:
        return {k: getattr(self, k) for k in Unit.__slots__}

    @classmethod
    def from_json(cls, d: JSON) -> Unit:
        u = Unit.__new__(Unit)
        for k in Unit.__slots__:
            setattr(u, k, d[k])
        return u


def uid_key(uid: str) -> tuple[str, int]:
    """Units in army-list order: ``S2`` before ``S10``."""
    return uid[0], int(uid[1:]) if uid[1:].isdigit() else 0


def _compositions(n: int, k: int) -> list[tuple[int, ...]]:
    """Every way to split ``n`` stands over ``k`` opponents (order matters)."""
    if k == 1:
        return [(n,)]
    return [(i, *rest) for i in range(n, -1, -1) for rest in _compositions(n - i, k - 1)]


def _submultisets(dice: list[int], lo: int, hi: int) -> list[tuple[int, ...]]:
    """Distinct sorted choices of ``lo``..``hi`` dice (by face value) out of ``dice``."""
    out: set[tuple[int, ...]] = set()
    vals = sorted(dice)
    for size in range(lo, min(hi, len(vals)) + 1):
        for combo in combinations_with_replacement(sorted(set(vals)), size):
            if all(combo.count(v) <= vals.count(v) for v in set(combo)):
                out.add(combo)
    return sorted(out, key=lambda c: (len(c), c))


class HVState(State):
    """A moment of a battle of An Honourable Victory!. Immutable from the outside."""

    def __init__(self, game: HonourableVictoryGame, tables: Tables, table: Table, options: JSON) -> None:
        self.game = game
        self.tables = tables
        self.table = table
        self.opts = options
        self.battle_id = ""
        self.battle_name = ""
        self.clans = ["", ""]
        self.daimyo_names = ["", ""]
        self.turn = 0
        self.init = 0
        self.units: dict[str, Unit] = {}
        #: engagements: (unit, its facet, other unit, its facet); the engager's facet is its front
        self.contacts: list[tuple[str, str, str, str]] = []
        self.daimyo: list[str | None] = [None, None]
        self.tally = [0, 0]
        self.start_units = [0, 0]
        self.pend: JSON = {}
        #: Firing Phase declarations per seat: (firer, target)
        self.fire_decl: list[list[tuple[str, str]]] = [[], []]
        #: hand-to-hand allocations: unit -> {enemy: stands}; ``alloc_open`` once revealed
        self.alloc: dict[str, dict[str, int]] = {}
        self.alloc_open = False
        self.attacks: list[tuple[str, str, int]] = []
        self.att: JSON | None = None
        self.daimyo_used: list[str] = []
        self.mover = 0
        self.chosen: list[str] = []
        self.cur: JSON | None = None
        self.rng = Rng(0)
        self.forced: list[int] = []
        self._result: Result | None = None
        self.events: tuple[Event, ...] = ()
        self._ev: list[Event] = []
        self._legal: list[str] | None = None

    # ------------------------------------------------------------ copying
    def clone(self) -> HVState:
        s = HVState.__new__(HVState)
        s.game, s.tables, s.table, s.opts = self.game, self.tables, self.table, self.opts
        s.battle_id, s.battle_name = self.battle_id, self.battle_name
        s.clans, s.daimyo_names = self.clans, self.daimyo_names
        s.turn, s.init = self.turn, self.init
        s.units = {k: u.copy() for k, u in self.units.items()}
        s.contacts = list(self.contacts)
        s.daimyo = list(self.daimyo)
        s.tally, s.start_units = list(self.tally), self.start_units
        s.pend = dict(self.pend)
        s.fire_decl = [list(d) for d in self.fire_decl]
        s.alloc = {k: dict(v) for k, v in self.alloc.items()}
        s.alloc_open = self.alloc_open
        s.attacks = list(self.attacks)
        s.att = None if self.att is None else {**self.att, "dice": list(self.att["dice"])}
        s.daimyo_used = list(self.daimyo_used)
        s.mover, s.chosen = self.mover, list(self.chosen)
        s.cur = None if self.cur is None else dict(self.cur)
        s.rng = self.rng.copy()
        s.forced = list(self.forced)
        s._result = self._result
        s.events = ()
        s._ev = []
        s._legal = None
        return s

    def with_forced_dice(self, faces: Sequence[int | str]) -> HVState:
        """A copy whose next D6 rolls are ``faces`` (in order, 1..6), then the RNG again."""
        try:
            dice = [int(f) for f in faces]
        except ValueError:
            raise FormatError(f"forced dice must be numbers 1..6, got {list(faces)}") from None
        if any(not 1 <= f <= 6 for f in dice):
            raise FormatError(f"forced dice must be 1..6, got {dice}")
        s = self.clone()
        s.forced = dice
        s.events = self.events
        return s

    # ------------------------------------------------------------ protocol
    def to_move(self) -> int | None:
        if self._result is not None or not self.pend:
            return None
        seat: int = self.pend["seat"]
        return seat

    def result(self) -> Result | None:
        return self._result

    def legal_actions(self) -> list[str]:
        if self._result is not None or not self.pend:
            return []
        if self._legal is None:
            self._legal = getattr(self, f"_legal_{self.pend['step']}")()
        return list(self._legal)

    def apply(self, action: str) -> HVState:
        action = " ".join(action.split())
        legal = self.legal_actions()
        if action not in legal:
            if self._result is not None:
                raise IllegalActionError(action, "the battle is over")
            raise IllegalActionError(action, self._why(action), legal)
        s = self.clone()
        getattr(s, f"_act_{s.pend['step']}")(action)
        s.events = tuple(s._ev)
        s._ev = []
        return s

    def _why(self, action: str) -> str:
        who = SIDES[self.pend["seat"]]
        words = action.split()
        if words and words[0] in self.units:
            u = self.units[words[0]]
            if u.side != self.pend["seat"]:
                return f"{words[0]} is a {SIDES[u.side]} unit; it is {who}'s decision ({self.prompt_text()})"
            return f"{words[0]} cannot do that now ({who}: {self.prompt_text()})"
        return f"it is {who}'s decision: {self.prompt_text()}"

    # ------------------------------------------------------------ basics
    def _d6(self) -> int:
        if self.forced:
            return self.forced.pop(0)
        return self.rng.randbelow(6) + 1

    def _roll(self, n: int) -> list[int]:
        return [self._d6() for _ in range(max(0, n))]

    def _say(self, ev_kind: str, text: str, **data: Any) -> None:
        self._ev.append(Event(ev_kind, data, text))

    def u(self, uid: str) -> Unit:
        return self.units[uid]

    def is_mounted(self, u: Unit) -> bool:
        """A Mounted unit that is mounted (a dismounted one is treated as foot)."""
        return u.cls == "mounted" and u.mounted

    def is_foot(self, u: Unit) -> bool:
        return not self.is_mounted(u)

    def label(self, u: Unit) -> str:
        kind = "Mounted" if self.is_mounted(u) else ("Dismounted" if u.cls == "mounted" else CLASS_NAME[u.cls])
        return f"{u.uid} ({u.name}, {kind})"

    def on_table(self, side: int | None = None) -> list[Unit]:
        return [u for u in self.units.values() if u.status == "table" and (side is None or u.side == side)]

    def contacts_of(self, uid: str) -> list[tuple[str, str]]:
        """(facet of ``uid``, enemy uid) for every contact of the unit."""
        out = []
        for a, af, b, bf in self.contacts:
            if a == uid:
                out.append((af, b))
            elif b == uid:
                out.append((bf, a))
        return out

    def engaged(self, uid: str) -> bool:
        return any(c[0] == uid or c[2] == uid for c in self.contacts)

    def enemies_engaged(self, uid: str) -> list[str]:
        return sorted({e for _, e in self.contacts_of(uid)}, key=uid_key)

    def facet_toward(self, target: str, attacker: str) -> str | None:
        """The facet of ``target`` that ``attacker`` is in contact with."""
        for a, af, b, bf in self.contacts:
            if a == target and b == attacker:
                return af
            if b == target and a == attacker:
                return bf
        return None

    def in_command(self, u: Unit) -> bool:
        """Command: in the Daimyo's zone, or a Mounted unit (mounted or dismounted)."""
        return u.cls == "mounted" or (u.status == "table" and self.daimyo[u.side] == u.zone)

    def friends_in(self, zone: str, side: int) -> int:
        return sum(1 for u in self.units.values()
                   if u.side == side and u.zone == zone and u.status in ("table", "reserve"))

    def room(self, zone: str, side: int) -> bool:
        return self.friends_in(zone, side) < self.table.limit

    def can_form(self, u: Unit, form: str, mounted: bool | None = None) -> bool:
        """Valid Unit Formations for ``u`` (as mounted or dismounted when ``mounted`` is given)."""
        mtd = (u.cls == "mounted" and u.mounted) if mounted is None else mounted
        if u.stands == 1:
            return form == "open"
        if form == "attack":
            return True
        if form == "defensive":
            return not mtd
        # open order
        return u.cls == "light-foot" or mtd or u.stands < 3

    def can_enter(self, u: Unit, zone: str, form: str | None = None) -> bool:
        """Appendix A: impassable zones, and woods only for mounted units in open order."""
        if self.table.impassable(zone):
            return False
        return not ("woods" in self.table.features(zone) and self.is_mounted(u) and (form or u.form) != "open")

    def quality(self, u: Unit) -> str:
        return u.quality if self.opts["quality"] != "off" else "seasoned"

    # ------------------------------------------------------------ turn sequence
    def begin(self) -> None:
        """Start the first Game Turn."""
        self._begin_turn()

    def _begin_turn(self) -> None:
        self.turn += 1
        # The Determine the Initiative Phase: 2D6 each, lowest wins, re-throw ties
        while True:
            a, b = self._roll(2), self._roll(2)
            self._say("initiative", f"Turn {self.turn}: initiative dice South {a[0]}+{a[1]}, "
                      f"North {b[0]}+{b[1]}", faces=[a, b], turn=self.turn)
            if sum(a) != sum(b):
                break
        self.init = 0 if sum(a) < sum(b) else 1
        self._say("initiative-won", f"{SIDES[self.init]} has the initiative", seat=self.init)
        self.fire_decl = [[], []]
        self.pend = {"step": "fire", "seat": self.init}
        self._next_fire()

    # ------------------------------------------------------------ firing phase
    def can_fire_in_phase(self, u: Unit) -> bool:
        return (u.status == "table" and not u.fired and not self.engaged(u.uid)
                and self.tables.weapons[u.weapon].fires == "phase")

    def can_defensive_fire(self, u: Unit) -> bool:
        """Defensive fire: a foot unit with bows, firearms or spears (or dismounted) and no red marker."""
        return self.is_foot(u) and not u.fired and self.tables.weapons[u.weapon].fires in ("phase", "reacting")

    def fire_targets(self, u: Unit, decl: list[tuple[str, str]]) -> list[str]:
        """Choosing a Unit's Target: unengaged enemies in the zone, fire spread evenly."""
        targets = [e for e in self.on_table(1 - u.side) if e.zone == u.zone and not self.engaged(e.uid)]
        if not targets:
            return []
        counts = {e.uid: sum(1 for _, t in decl if t == e.uid) for e in targets}
        least = min(counts.values())
        return sorted((t for t, n in counts.items() if n == least), key=uid_key)

    def _fire_actions(self, seat: int) -> list[str]:
        decl = self.fire_decl[seat]
        done = {f for f, _ in decl}
        out: list[str] = []
        for u in self.on_table(seat):
            if u.uid not in done and self.can_fire_in_phase(u):
                out.extend(f"fire {u.uid} {t}" for t in self.fire_targets(u, decl))
        return out

    def _legal_fire(self) -> list[str]:
        return [*self._fire_actions(self.pend["seat"]), "done"]

    def _act_fire(self, action: str) -> None:
        seat = self.pend["seat"]
        if action == "done":
            self.pend["done"] = self.pend.get("done", 0) + 1
            if self.pend["done"] >= 2:
                self._resolve_fire()
                return
            self.pend["seat"] = 1 - seat
        else:
            _, f, t = action.split()
            self.fire_decl[seat].append((f, t))
            self._ev.append(Event("declare", {"seat": seat, "firer": f, "target": t},
                                  f"{SIDES[seat]} declares {f} firing at {t}", visible_to=(seat,)))
        self._next_fire()

    def _next_fire(self) -> None:
        """Skip a seat that has nothing left to declare (its only choice is done)."""
        while self.pend.get("step") == "fire":
            if self._fire_actions(self.pend["seat"]):
                return
            self.pend["done"] = self.pend.get("done", 0) + 1
            if self.pend["done"] >= 2:
                self._resolve_fire()
                return
            self.pend["seat"] = 1 - self.pend["seat"]

    def fire_dice(self, firer: Unit, target: Unit) -> int:
        """How do you resolve firing: 1D6 a stand and the four modifiers, less cover."""
        n = firer.stands
        if firer.form == "defensive":
            n -= 2
        if self.is_mounted(target):
            n += 1
        if target.form == "defensive":
            n += 2
        if target.form == "open":
            n -= 1
        if self.is_foot(target):
            n -= 2 * self.table.cover(target.zone)
        return max(0, n)

    def _shoot(self, firer: Unit, target: Unit, why: str) -> int:
        n = self.fire_dice(firer, target)
        dice = self._roll(n)
        need = FIRE_HIT[self.quality(firer)]
        hits = sum(1 for d in dice if d <= need)
        target.hits += hits
        firer.fired = True
        self._say("fire", f"{firer.uid} {why} {target.uid} with {n}D6 {dice}: {plural(hits, 'hit')}",
                  firer=firer.uid, target=target.uid, faces=dice, hits=hits, need=need)
        return hits

    def _resolve_fire(self) -> None:
        """All fire is simultaneous: declarations are revealed, then resolved (ruling H7)."""
        order = [self.init, 1 - self.init]
        for seat in order:
            for f, t in self.fire_decl[seat]:
                self._shoot(self.u(f), self.u(t), "fires at")
        self.fire_decl = [[], []]
        self._begin_h2h()

    # ------------------------------------------------------------ hand-to-hand phase
    def _begin_h2h(self) -> None:
        self.alloc = {}
        self.alloc_open = False
        self.daimyo_used = []
        for u in self.on_table():
            if self.engaged(u.uid):
                u.hits += 1
                self._say("h2h-marker", f"{u.uid} is engaged: one hit marker", unit=u.uid)
                foes = self.enemies_engaged(u.uid)
                if len(foes) == 1:
                    self.alloc[u.uid] = {foes[0]: u.stands}
        self.pend = {"step": "alloc", "seat": self.init}
        self._next_alloc()

    def _needs_alloc(self, seat: int) -> list[Unit]:
        return [u for u in self.on_table(seat) if self.engaged(u.uid) and u.uid not in self.alloc]

    def _alloc_actions(self, u: Unit) -> list[str]:
        foes = self.enemies_engaged(u.uid)
        out = []
        for comp in _compositions(u.stands, len(foes)):
            out.append(f"alloc {u.uid} " + " ".join(f"{f}={n}" for f, n in zip(foes, comp)))
        return out

    def _legal_alloc(self) -> list[str]:
        out: list[str] = []
        for u in self._needs_alloc(self.pend["seat"]):
            out.extend(self._alloc_actions(u))
        return out

    def _act_alloc(self, action: str) -> None:
        parts = action.split()
        uid = parts[1]
        self.alloc[uid] = {p.split("=")[0]: int(p.split("=")[1]) for p in parts[2:]}
        seat = self.pend["seat"]
        self._ev.append(Event("allocate", {"unit": uid, "alloc": self.alloc[uid]},
                              f"{SIDES[seat]} allocates {uid}: {' '.join(parts[2:])}", visible_to=(seat,)))
        self._next_alloc()

    def _next_alloc(self) -> None:
        for seat in (self.init, 1 - self.init):
            if self._needs_alloc(seat):
                self.pend = {"step": "alloc", "seat": seat}
                return
        self.alloc_open = True
        self.attacks = []
        for seat in (self.init, 1 - self.init):
            for u in sorted(self.on_table(seat), key=lambda x: uid_key(x.uid)):
                for t, n in sorted(self.alloc.get(u.uid, {}).items(), key=lambda kv: uid_key(kv[0])):
                    if n > 0:
                        self.attacks.append((u.uid, t, n))
        self.att = None
        self._run_attacks()

    def combat_value(self, a: Unit, t: Unit) -> int:
        """Combat Value of ``a``'s stands attacking ``t``: base, the four modifiers, limits 1..5."""
        cv = 3 if a.cls == "mounted" else self.tables.weapons[a.weapon].cv
        if a.form == "open":
            cv -= 1
        if a.form == "defensive" and a.weapon != "long-spear" and self.is_foot(t):
            cv -= 1
        if self.is_mounted(a) and self.is_foot(t) and t.form == "open":
            cv += 1
        if self.is_mounted(a) and t.form == "defensive":
            cv -= 2 if t.weapon == "long-spear" else 1
        return max(1, min(5, cv))

    def attack_dice(self, a: Unit, t: Unit, stands: int) -> int:
        """1D6 a stand allocated, less two a terrain feature giving ``t`` the advantage."""
        n = stands
        if self.is_foot(t):
            n -= 2 * self.table.advantage(t.zone)
        return max(0, n)

    def reroll_kind(self, a: Unit, t: Unit) -> str | None:
        """``"overlap"`` (engaged with a flank), ``"outflank"`` (the rear) or ``None``."""
        if t.form == "defensive":
            return None
        facet = self.facet_toward(t.uid, a.uid)
        if facet in ("left", "right"):
            return "overlap"
        if facet == "rear":
            return "outflank"
        return None

    def _daimyo_reroll_ok(self, a: Unit) -> bool:
        return self.daimyo[a.side] == a.zone and a.uid not in self.daimyo_used

    def _run_attacks(self) -> None:
        while True:
            if self.att is None:
                if not self.attacks:
                    break
                a, t, n = self.attacks.pop(0)
                ua, ut = self.u(a), self.u(t)
                cv = self.combat_value(ua, ut)
                nd = self.attack_dice(ua, ut, n)
                dice = self._roll(nd)
                self.att = {"a": a, "t": t, "stands": n, "cv": cv, "dice": dice, "stage": "reroll"}
                self._say("attack", f"{a} attacks {t} with {plural(n, 'stand')}: {nd}D6 {dice}, "
                          f"CV {cv}: {plural(sum(1 for d in dice if d <= cv), 'hit')}",
                          attacker=a, target=t, faces=dice, cv=cv, stands=n)
            st = self.att
            ua, ut = self.u(st["a"]), self.u(st["t"])
            if st["stage"] == "reroll":
                if st["dice"] and self.reroll_kind(ua, ut) is not None:
                    self.pend = {"step": "reroll", "seat": ua.side}
                    return
                st["stage"] = "daimyo"
            if st["stage"] == "daimyo":
                if st["dice"] and self._daimyo_reroll_ok(ua):
                    self.pend = {"step": "daimyo", "seat": ua.side}
                    return
            self._finish_attack()
        self._remove_losses()

    def _finish_attack(self) -> None:
        st = self.att
        assert st is not None
        a, t = self.u(st["a"]), self.u(st["t"])
        hits = sum(1 for d in st["dice"] if d <= st["cv"])
        q = self.quality(a)
        if q == "green":
            hits = max(0, hits - 1)
        elif q == "veteran" and hits > 0:
            hits += 1
        t.hits += hits
        self._say("attack-hits", f"{a.uid} scores {plural(hits, 'hit')} on {t.uid}", attacker=a.uid, target=t.uid,
                  hits=hits, faces=st["dice"])
        self.att = None

    def _legal_reroll(self) -> list[str]:
        st = self.att
        assert st is not None
        kind = self.reroll_kind(self.u(st["a"]), self.u(st["t"]))
        hi = 2 if kind == "overlap" else len(st["dice"])
        return ["accept", *("reroll " + " ".join(map(str, c)) for c in _submultisets(st["dice"], 1, hi))]

    def _act_reroll(self, action: str) -> None:
        st = self.att
        assert st is not None
        if action != "accept":
            kind = self.reroll_kind(self.u(st["a"]), self.u(st["t"]))
            picked = [int(x) for x in action.split()[1:]]
            dice = list(st["dice"])
            for v in picked:
                dice.remove(v)
            new = self._roll(len(picked))
            st["dice"] = dice + new
            word = "an overlapping" if kind == "overlap" else "an outflanking"
            self._say("reroll", f"{st['a']} makes {word} re-throw of {picked}: {new} "
                      f"(now {st['dice']})", unit=st["a"], kind=kind, faces=new)
        st["stage"] = "daimyo"
        self._run_attacks()

    def _legal_daimyo(self) -> list[str]:
        return ["accept", "daimyo"]

    def _act_daimyo(self, action: str) -> None:
        st = self.att
        assert st is not None
        if action == "daimyo":
            st["dice"] = self._roll(len(st["dice"]))
            self.daimyo_used.append(st["a"])
            self._say("reroll", f"{st['a']} makes a Daimyo's re-throw: {st['dice']}", unit=st["a"],
                      kind="daimyo", faces=st["dice"])
        st["stage"] = "done"
        self._run_attacks()

    # ------------------------------------------------------------ remove losses
    def _remove_losses(self) -> None:
        """The Remove Losses Phase: by stands remaining, non-initiative side first at each step."""
        non = 1 - self.init
        order = sorted((u for u in self.units.values() if u.status in ("table", "reserve") and u.hits),
                       key=lambda u: (u.stands, 0 if u.side == non else 1, uid_key(u.uid)))
        ask: list[str] = []
        for u in order:
            if u.status not in ("table", "reserve"):
                continue
            lost = min(u.hits // 2, u.stands)
            before = u.stands
            u.stands -= lost
            left = u.hits - 2 * lost
            u.hits = 0
            self._say("losses", f"{u.uid} removes {plural(lost, 'stand')} ({before} -> {u.stands})"
                      + (f"; {plural(left, 'leftover hit marker')} removed" if left else ""),
                      unit=u.uid, lost=lost, stands=u.stands, side=u.side)
            if u.stands == 0:
                self._rout(u, "is destroyed")
            elif lost and u.stands == 1:
                self._rout(u, "is reduced to a single stand and routs")
            elif not self.can_form(u, u.form):
                self._rout(u, f"is no longer in a valid {u.form} formation and routs")
            elif lost:
                ask.append(u.uid)
        self._next_breakoff(ask)

    def _next_breakoff(self, ask: list[str]) -> None:
        """001:465-469: the owner chooses which stands to remove, and may so break contact with
        the enemies his unit was engaged with (ruling H6): each unit that lost stands and is
        still engaged asks its owner, in the order losses were removed; then the movement phase."""
        ask = [uid for uid in ask if self.u(uid).status == "table" and self.engaged(uid)]
        if ask:
            self.pend = {"step": "breakoff", "seat": self.u(ask[0]).side, "unit": ask[0], "after": ask[1:]}
            return
        if self._result is None:
            self._begin_move(self.init)

    def _legal_breakoff(self) -> list[str]:
        uid = self.pend["unit"]
        return [f"{uid} hold", f"{uid} break"]

    def _act_breakoff(self, action: str) -> None:
        uid, verb = action.split()
        after = list(self.pend["after"])
        if verb == "break":
            enemies = self.enemies_engaged(uid)
            self.contacts = [c for c in self.contacts if c[0] != uid and c[2] != uid]
            self._say("break_contact", f"{self.label(self.u(uid))} removes the stands in contact and breaks "
                      f"contact with {', '.join(enemies)}", unit=uid, enemies=enemies)
        self._next_breakoff(after)

    def _rout(self, u: Unit, why: str) -> None:
        u.status = "routed"
        self.contacts = [c for c in self.contacts if c[0] != u.uid and c[2] != u.uid]
        self.tally[u.side] += 1
        self._say("rout", f"{self.label(u)} {why}", unit=u.uid, side=u.side)

    # ------------------------------------------------------------ movement phases
    def _begin_move(self, seat: int) -> None:
        self.mover = seat
        self.chosen = []
        self.cur = None
        self.pend = {"step": "move", "seat": seat}
        self._say("phase", f"{SIDES[seat]} movement phase", seat=seat)

    def _end_move_phase(self) -> None:
        for u in self.units.values():
            u.reacted = False
        self.cur = None
        if self.mover == self.init:
            self._begin_move(1 - self.init)
        else:
            self._victory()

    def _move_dest(self, u: Unit, first: bool) -> str | None:
        if u.form == "defensive":
            return None
        dest = self.table.step(u.zone, u.facing)
        if dest is None or self.table.crossing_blocked(u.zone, dest) or not self.can_enter(u, dest):
            return None
        if not self.room(dest, u.side):
            return None
        if self.is_mounted(u) and not first and self.table.restricted(dest):
            return None
        return dest

    def _basic_actions(self, u: Unit, first: bool) -> list[str]:
        """Performing Actions: change formation, turn, move, mount up or dismount."""
        out: list[str] = []
        for f in FORMS:
            if f != u.form and self.can_form(u, f):
                if u.form == "defensive":
                    out.extend(f"{u.uid} form {f} {d}" for d in DIRS)
                else:
                    out.append(f"{u.uid} form {f}")
        if u.form != "defensive":
            out.extend(f"{u.uid} turn {DIRS[d]}" for d in range(4) if d != u.facing)
        if self._move_dest(u, first) is not None:
            out.append(f"{u.uid} move")
        if u.cls == "mounted":
            if u.mounted and self.can_form(u, u.form, mounted=False):
                out.append(f"{u.uid} dismount")
            if not u.mounted and self.can_form(u, u.form, mounted=True) and \
                    not ("woods" in self.table.features(u.zone) and u.form != "open"):
                out.append(f"{u.uid} mount")
        return out

    def can_disengage(self, u: Unit) -> bool:
        if not self.is_mounted(u) or not self.engaged(u.uid):
            return False
        cs = self.contacts_of(u.uid)
        if any(self.is_mounted(self.u(e)) for _, e in cs):
            return False
        return len({f for f, _ in cs}) < 4

    def engage_options(self, u: Unit) -> list[str]:
        """Engaging Enemy Units: who may be engaged, and on which facet (the priorities)."""
        if u.status != "table" or u.form == "defensive" or self.engaged(u.uid):
            return []
        enemies = [e for e in self.on_table(1 - u.side) if e.zone == u.zone]
        free = [e for e in enemies if not self.engaged(e.uid)]
        out: list[str] = []
        for e in sorted(free or enemies, key=lambda x: uid_key(x.uid)):
            occupied = {f for f, _ in self.contacts_of(e.uid)}
            natural = FACETS[(u.facing + 2 - e.facing) % 4]
            if not self.engaged(e.uid) and self.is_mounted(e) and self.is_foot(u) \
                    and u.weapon != "long-spear" and natural != "rear":
                continue
            if natural not in occupied:
                facets = [natural]
            elif "front" not in occupied:
                facets = ["front"]
            elif {"left", "right"} - occupied:
                facets = sorted({"left", "right"} - occupied)
            elif "rear" not in occupied:
                facets = ["rear"]
            else:
                facets = []
            out.extend(f"{u.uid} engage {e.uid} {f}" for f in facets)
        return out

    def _unit_actions(self, u: Unit) -> list[str]:
        if u.status == "reserve":
            out: list[str] = []
            dest = self.table.in_front_of_reserve(u.zone)
            if self.room(dest, u.side):
                out.extend(f"{u.uid} enter {f}" for f in ("attack", "open")
                           if self.can_form(u, f) and self.can_enter(u, dest, f))
            out.extend(f"{u.uid} shift {rz}" for rz in self.table.reserve_zones(u.side)
                       if rz != u.zone and self.room(rz, u.side))
            return out
        if u.status != "table":
            return []
        if self.engaged(u.uid):
            return [f"{u.uid} disengage"] if self.can_disengage(u) else []
        out = self._basic_actions(u, first=True) + self.engage_options(u)
        if self.daimyo[u.side] == u.zone:
            out.append(f"{u.uid} withdraw")
        rz = self.table.reserve_behind(u.zone, u.side)
        if rz is not None and self.room(rz, u.side):
            out.append(f"{u.uid} reserve")
        return out

    def daimyo_moves(self, seat: int) -> list[str]:
        z = self.daimyo[seat]
        if z is None:
            return []
        return [f"daimyo {n}" for n in self.table.neighbours8(z)
                if not self.table.impassable(n) and "woods" not in self.table.features(n)
                and not self.table.diagonal_blocked(z, n)]

    def _legal_move(self) -> list[str]:
        seat = self.pend["seat"]
        out: list[str] = []
        for u in sorted(self.units.values(), key=lambda x: uid_key(x.uid)):
            if u.side == seat and u.uid not in self.chosen:
                out.extend(self._unit_actions(u))
        return [*out, *self.daimyo_moves(seat), "end", "concede"]

    def _act_move(self, action: str) -> None:
        seat = self.pend["seat"]
        if action == "end":
            self._say("phase-end", f"{SIDES[seat]} ends its movement phase", seat=seat)
            self._end_move_phase()
            return
        if action == "concede":
            self._finish(1 - seat, f"An Honourable Victory! ({SIDES[seat]} concedes defeat)")
            return
        words = action.split()
        if words[0] == "daimyo":
            self._say("daimyo", f"{SIDES[seat]}'s Daimyo moves {self.daimyo[seat]} -> {words[1]}; "
                      "the movement phase ends", seat=seat, to=words[1])
            self.daimyo[seat] = words[1]
            self._end_move_phase()
            return
        u = self.u(words[0])
        self.chosen.append(u.uid)
        left = 2 if self.is_mounted(u) and not self.table.restricted(u.zone) else 1
        self.cur = {"unit": u.uid, "left": left}
        self._unit_act(u, words[1:])

    def _unit_act(self, u: Unit, words: list[str]) -> None:
        """Carry out one action of the current unit (first or second)."""
        cur = self.cur
        assert cur is not None
        verb = words[0]
        if verb in ("form", "turn", "move", "mount", "dismount", "disengage"):
            cur["left"] -= 1
        if verb == "form":
            old = u.form
            u.form = words[1]
            if len(words) > 2:
                u.facing = DIRS.index(words[2])
            self._say("form", f"{u.uid} changes formation {old} -> {u.form} facing {DIRS[u.facing]}",
                      unit=u.uid, form=u.form)
            self._continue()
        elif verb == "turn":
            u.facing = DIRS.index(words[1])
            self._say("turn", f"{u.uid} turns to face {words[1]}", unit=u.uid)
            self._continue()
        elif verb == "mount":
            u.mounted = True
            cur["left"] = 0
            self._say("mount", f"{u.uid} mounts up", unit=u.uid)
            self._continue()
        elif verb == "dismount":
            u.mounted = False
            cur["left"] = 0  # ruling H17: a dismounted unit has one action
            self._say("dismount", f"{u.uid} dismounts", unit=u.uid)
            self._continue()
        elif verb == "move":
            dest = self._move_dest(u, True)
            assert dest is not None
            if self.is_mounted(u) and self.table.restricted(dest):
                cur["left"] = 0
            self._say("move-announce", f"{u.uid} moves out of {u.zone} towards {dest}", unit=u.uid, to=dest)
            self._window("leave", u.uid, dest=dest)
        elif verb == "disengage":
            foes = self.enemies_engaged(u.uid)
            hits = sum(1 for e in foes if self.u(e).form == "attack")
            u.hits += hits
            self.contacts = [c for c in self.contacts if c[0] != u.uid and c[2] != u.uid]
            self._say("disengage", f"{u.uid} disengages from {', '.join(foes)}: {plural(hits, 'hit marker')}",
                      unit=u.uid, hits=hits)
            self._window("disengaged", u.uid)
        elif verb == "engage":
            self._announce_engage(u, words[1], words[2])
        elif verb == "withdraw":
            u.status = "routed"
            self.tally[u.side] += 1
            self._say("withdraw", f"{self.label(u)} is ordered to withdraw from the battle", unit=u.uid)
            self._unit_done()
        elif verb == "reserve":
            rz = self.table.reserve_behind(u.zone, u.side)
            self._say("move-announce", f"{u.uid} moves off the table into {rz}", unit=u.uid, to=rz)
            self._window("leave", u.uid, dest=rz)
        elif verb == "enter":
            dest = self.table.in_front_of_reserve(u.zone)
            u.status, u.zone, u.facing, u.form = "table", dest, FORWARD[u.side], words[1]
            self._say("enter", f"{u.uid} moves onto the table into {dest} in {u.form} formation",
                      unit=u.uid, to=dest)
            self._window("enter", u.uid, from_reserve=True)
        elif verb == "shift":
            self._say("shift", f"{u.uid} moves from reserve {u.zone} to {words[1]}", unit=u.uid)
            u.zone = words[1]
            self._unit_done()
        else:  # pragma: no cover - legal_actions offers nothing else
            raise AssertionError(verb)

    def _continue(self) -> None:
        """After an action: a mounted unit's second action, else the next unit."""
        cur = self.cur
        assert cur is not None
        u = self.u(cur["unit"])
        if cur["left"] > 0 and u.status == "table" and not self.engaged(u.uid) and self._legal_act2_for(u):
            self.pend = {"step": "act2", "seat": self.mover, "unit": u.uid}
        else:
            self._unit_done()

    def _unit_done(self) -> None:
        """The unit's movement is over; the phase ends once every unit has been chosen (H16)."""
        self.cur = None
        self.pend = {"step": "move", "seat": self.mover}
        left = [u for u in self.units.values()
                if u.side == self.mover and u.status in ("table", "reserve") and u.uid not in self.chosen]
        if not left:
            self._say("phase-end", f"{SIDES[self.mover]} has no more units to choose: its movement phase ends",
                      seat=self.mover)
            self._end_move_phase()

    def _legal_act2_for(self, u: Unit) -> list[str]:
        return self._basic_actions(u, first=False)

    def _legal_act2(self) -> list[str]:
        u = self.u(self.pend["unit"])
        return [*self._legal_act2_for(u), f"{u.uid} stop"]

    def _act_act2(self, action: str) -> None:
        words = action.split()
        if words[1] == "stop":
            self._unit_done()
            return
        self._unit_act(self.u(words[0]), words[1:])

    # ------------------------------------------------------------ engaging
    def engage_needs_test(self, u: Unit, target: Unit) -> bool:
        """The two exceptions: in command, or a friendly unit already engaged with the target."""
        if self.in_command(u):
            return False
        return not any(self.u(e).side == u.side for e in self.enemies_engaged(target.uid))

    def _announce_engage(self, u: Unit, tid: str, facet: str) -> None:
        t = self.u(tid)
        self._say("engage-announce", f"{u.uid} attempts to engage {tid} ({facet})", unit=u.uid, target=tid)
        if self.engage_needs_test(u, t):
            q = self.quality(u)
            need = 1 if q == "green" else 4 if q == "veteran" else (3 if u.form == "attack" else 1)
            d = self._d6()
            ok = d <= need
            self._say("engage-test", f"{u.uid} tests to engage: {d} (needs {need} or less): "
                      + ("passes" if ok else "fails; it vacillates"), unit=u.uid, faces=[d], need=need, ok=ok)
            if not ok:
                self._unit_done()
                return
        self._window("engage", u.uid, target=tid, facet=facet)

    def _engage(self, e: Unit, x: Unit, facet: str) -> None:
        """Place ``e``'s front against ``x``'s ``facet`` (turning ``e`` if the priorities need it)."""
        fd = (x.facing + FACETS.index(facet)) % 4
        e.facing = opposite(fd)
        self.contacts.append((e.uid, "front", x.uid, facet))
        self._say("engage", f"{e.uid} engages {x.uid} on its {facet}", unit=e.uid, target=x.uid, facet=facet)

    def _front_to_front(self, r: Unit, e: Unit, why: str) -> None:
        """Counter-charge or intercept: ``r`` engages ``e`` front to front; disorder hits."""
        need = opposite(e.facing)
        turned = r.facing != need
        r.facing = need
        r.hits += 1 + (1 if turned else 0)
        self.contacts.append((r.uid, "front", e.uid, "front"))
        self._say("engage", f"{r.uid} {why} {e.uid} front to front: {plural(1 + int(turned), 'hit marker')}"
                  + (" (it turned)" if turned else ""), unit=r.uid, target=e.uid, facet="front")

    # ------------------------------------------------------------ reactions
    def _can_react(self, r: Unit, zone: str) -> bool:
        return (r.side != self.mover and r.status == "table" and r.zone == zone and not r.reacted
                and not self.engaged(r.uid))

    def can_recoil(self, x: Unit) -> bool:
        rz = self.table.closest_reserve(x.zone, x.side)
        return rz is not None and self.room(rz, x.side)

    def reaction_options(self, p: JSON) -> tuple[list[str], bool]:
        """The reactions open to the reacting side, and whether one is compulsory."""
        e = self.u(p["unit"])
        zone = e.zone
        out: list[str] = []
        x = self.u(p["target"]) if p.get("target") else None
        for m in sorted(self.units.values(), key=lambda v: uid_key(v.uid)):
            if m is not x and self._can_react(m, zone) and self.is_mounted(m) and not self.table.restricted(zone):
                out.append(f"{m.uid} intercept")
        compulsory = False
        if p["trig"] == "engage" and x is not None and self._can_react(x, zone):
            if self.is_mounted(x):
                compulsory = True
                out.append(f"{x.uid} counter")
                if self.can_recoil(x):
                    out.append(f"{x.uid} recoil")
            else:
                if self.is_foot(e) and self.can_defensive_fire(x):
                    out.append(f"{x.uid} fire")
                if x.form != "defensive" and self.can_form(x, "defensive"):
                    out.append(f"{x.uid} defend")
                if x.form == "open" and self.is_foot(e):
                    out.append(f"{x.uid} evade")
        return out, compulsory

    def _window(self, trig: str, uid: str, target: str | None = None, facet: str | None = None,
                dest: str | None = None, from_reserve: bool = False) -> None:
        p: JSON = {"step": "react", "seat": 1 - self.mover, "trig": trig, "unit": uid, "target": target,
                   "facet": facet, "dest": dest, "from_reserve": from_reserve}
        opts, _ = self.reaction_options(p)
        if opts:
            self.pend = p
        else:
            self._close_window(p)

    def _legal_react(self) -> list[str]:
        opts, compulsory = self.reaction_options(self.pend)
        return opts if compulsory else [*opts, "none"]

    def _close_window(self, p: JSON) -> None:
        """No (more) reactions: the announced movement goes ahead."""
        e = self.u(p["unit"])
        trig = p["trig"]
        if trig == "engage":
            self._engage(e, self.u(p["target"]), p["facet"])
            self._unit_done()
        elif trig == "leave":
            dest = p["dest"]
            if self.table.is_reserve(dest):
                e.status, e.zone = "reserve", dest
                self._say("move", f"{e.uid} is now in reserve zone {dest}", unit=e.uid, to=dest)
                self._unit_done()
            else:
                e.zone = dest
                self._say("move", f"{e.uid} moves into {dest}", unit=e.uid, to=dest)
                self._window("enter", e.uid)
        elif trig == "enter" and p.get("from_reserve"):
            self._unit_done()
        else:
            self._continue()

    def _act_react(self, action: str) -> None:
        p = self.pend
        if action == "none":
            self._close_window(p)
            return
        rid, verb = action.split()
        r, e = self.u(rid), self.u(p["unit"])
        r.reacted = True
        if verb == "intercept":
            self._front_to_front(r, e, "intercepts")
            if self.is_foot(e):
                e.hits += 3
                self._say("impact", f"{e.uid} suffers a heavy impact: 3 hit markers", unit=e.uid, hits=3)
            self._unit_done()
            return
        x = r
        if verb == "counter":
            self._front_to_front(x, e, "counter-charges")
            self._unit_done()
        elif verb == "recoil":
            rz = self.table.closest_reserve(x.zone, x.side)
            assert rz is not None
            x.status, x.zone = "reserve", rz
            self._say("recoil", f"{x.uid} recoils into reserve zone {rz}", unit=x.uid, to=rz)
            if self.is_foot(e):
                self._say("stop", f"{e.uid} remains unengaged and does no more", unit=e.uid)
                self._unit_done()
            else:
                self.pend = {"step": "recoiled", "seat": self.mover, "unit": e.uid}
        elif verb == "fire":
            hits = self._shoot(x, e, "issues defensive fire at")
            if hits >= 2:
                self._say("flinch", f"{e.uid} flinches: both units remain unengaged", unit=e.uid)
                self._unit_done()
            else:
                if hits == 0:
                    x.hits += 1
                    self._say("impact", f"{x.uid} suffers a light impact: 1 hit marker", unit=x.uid, hits=1)
                self._engage(e, x, p["facet"])
                self._unit_done()
        elif verb == "defend":
            x.form = "defensive"
            x.hits += 1
            self._say("form", f"{x.uid} hastily forms a defensive formation: 1 hit marker", unit=x.uid,
                      form="defensive")
            if self.is_foot(e):
                self._engage(e, x, p["facet"])
            elif x.weapon == "long-spear":
                e.hits += 1
                self._say("pull-up", f"{e.uid} pulls up short before the long spears: 1 hit marker",
                          unit=e.uid, hits=1)
            else:
                self._engage(e, x, p["facet"])
                x.hits += 3
                self._say("impact", f"{e.uid} charges home: {x.uid} suffers a heavy impact, 3 hit markers",
                          unit=x.uid, hits=3)
            self._unit_done()
        elif verb == "evade":
            self._say("evade", f"{x.uid} evades {e.uid}: both remain unengaged", unit=x.uid)
            self._unit_done()
        else:  # pragma: no cover
            raise AssertionError(verb)

    def _legal_recoiled(self) -> list[str]:
        e = self.u(self.pend["unit"])
        return [*self.engage_options(e), *(f"{e.uid} rally {d}" for d in DIRS)]

    def _act_recoiled(self, action: str) -> None:
        words = action.split()
        e = self.u(words[0])
        if words[1] == "rally":
            e.facing = DIRS.index(words[2])
            self._say("rally", f"{e.uid} rallies, facing {words[2]}", unit=e.uid)
            self._unit_done()
        else:
            self._announce_engage(e, words[2], words[3])

    # ------------------------------------------------------------ victory
    def values(self, side: int) -> tuple[int, int]:
        """The 1/3 value and the 1/2 value (Breakpoint Value), fractions rounded up."""
        n = self.start_units[side]
        return ceil(n / 3), ceil(n / 2)

    def off_table(self, side: int) -> int:
        return sum(1 for u in self.units.values() if u.side == side and u.status != "table")

    def uncontested(self, side: int) -> int:
        out = 0
        for z in self.table.zones():
            mine = any(u.side == side and u.zone == z for u in self.on_table())
            theirs = any(u.side != side and u.zone == z for u in self.on_table())
            out += mine and not theirs
        return out

    def honourable_zones(self) -> int:
        """Ten of fifteen zones; two thirds of the zones on a wider table (ruling H26)."""
        return ceil(2 * len(self.table.zones()) / 3)

    def _victory(self) -> None:
        """The Determine Victory Phase."""
        retreat = [self.off_table(s) > len(self.on_table(s)) for s in (0, 1)]
        if all(retreat):
            self._finish(None, "A Humiliating Loss for both sides! (both in general retreat)")
            return
        for s in (0, 1):
            if retreat[s]:
                self._finish(1 - s, f"An Honourable Victory! ({SIDES[s]} is in general retreat)")
                return
        for u in self.units.values():
            u.fired = u.reacted = False
        broken = []
        for s in (0, 1):
            third, half = self.values(s)
            if self.tally[s] >= third and self.daimyo[s] is not None:
                self.daimyo[s] = None
                self._say("daimyo-lost", f"{SIDES[s]} has lost {self.tally[s]} units: its Daimyo is removed",
                          seat=s)
            if self.tally[s] >= half:
                broken.append(SIDES[s])
        ended = f"{' and '.join(broken)}'s morale breaks" if broken else None
        if ended is None and self.turn >= self.opts["turn_limit"]:
            ended = f"the turn limit ({self.opts['turn_limit']}) is reached"
        if ended is not None:
            self._by_zones(ended)
            return
        self._begin_turn()

    def _by_zones(self, why: str) -> None:
        a, b = self.uncontested(0), self.uncontested(1)
        need = self.honourable_zones()
        for s, mine, theirs in ((0, a, b), (1, b, a)):
            if mine >= need:
                self._finish(s, f"An Honourable Victory! ({why}; {SIDES[s]} holds {mine} zones uncontested)")
                return
            if mine > theirs:
                self._finish(s, f"A Minor Victory ({why}; {SIDES[s]} holds {mine} zones to {theirs})")
                return
        self._finish(None, f"A Draw ({why}; {a} zones to {b})")

    def _finish(self, winner: int | None, reason: str) -> None:
        scores = (0.5, 0.5) if winner is None else ((1.0, 0.0) if winner == 0 else (0.0, 1.0))
        self._result = Result(winner, reason, scores)
        self.pend = {}
        self._say("victory", reason, winner=winner)

    # ------------------------------------------------------------ views
    def prompt_text(self) -> str:
        p = self.pend
        step = p.get("step")
        if step == "fire":
            return "declare fire (fire FIRER TARGET) or done"
        if step == "alloc":
            return "allocate the stands of a unit engaged with several enemies"
        if step == "reroll":
            st = self.att or {}
            kind = self.reroll_kind(self.u(st["a"]), self.u(st["t"]))
            return f"{st['a']} against {st['t']} threw {st['dice']} (CV {st['cv']}): {kind} re-throw or accept"
        if step == "daimyo":
            st = self.att or {}
            return f"{st['a']} against {st['t']} threw {st['dice']} (CV {st['cv']}): Daimyo's re-throw or accept"
        if step == "move":
            return "choose a unit and what it does, move the Daimyo, or end the movement phase"
        if step == "act2":
            return f"{p['unit']}: second action, or stop"
        if step == "react":
            what = {"engage": f"attempts to engage {p['target']}", "leave": "is leaving the zone",
                    "enter": "has moved into the zone", "disengaged": "has disengaged"}[p["trig"]]
            return f"{p['unit']} {what}: react?"
        if step == "recoiled":
            return f"{p['unit']}'s target recoiled: engage another unit or rally"
        if step == "breakoff":
            return (f"{p['unit']} lost stands: keep contact with {', '.join(self.enemies_engaged(p['unit']))} "
                    "or break contact by the stands you remove")
        return ""

    def prompt(self) -> str:
        if self._result is not None or not self.pend:
            return ""
        return f"{SIDES[self.pend['seat']]}: {self.prompt_text()}"

    def describe_action(self, action: str) -> str:
        w = action.split()
        if not w:
            return action
        if w[0] == "fire" and len(w) == 3 and w[1] in self.units and w[2] in self.units:
            return f"{w[1]} fires at {w[2]} ({self.fire_dice(self.u(w[1]), self.u(w[2]))}D6)"
        if w[0] == "reroll":
            return f"re-throw the dice showing {', '.join(w[1:])}"
        simple = {"done": "no more fire", "accept": "let the throw stand", "daimyo": "Daimyo's re-throw of every die",
                  "end": "end the movement phase", "concede": "concede defeat", "none": "no reaction"}
        if action in simple:
            return simple[action]
        if w[0] in self.units and len(w) >= 2:
            u = self.u(w[0])
            verb = w[1]
            texts: dict[str, Callable[[], str]] = {"move": lambda: f"move forward ({DIRS[u.facing]})", "turn": lambda: f"turn to face {w[2]}",
                     "form": lambda: f"change to {w[2]} formation", "engage": lambda: f"engage {w[2]} on its {w[3]}",
                     "intercept": lambda: f"intercept {self.pend.get('unit')}",
                     "counter": lambda: "counter-charge", "recoil": lambda: "recoil to the reserve",
                     "fire": lambda: "defensive fire", "defend": lambda: "hasty defensive formation",
                     "evade": lambda: "evade", "withdraw": lambda: "withdraw from the battle",
                     "reserve": lambda: "move off the table into reserve",
                     "enter": lambda: f"move onto the table in {w[2]} formation",
                     "shift": lambda: f"move to reserve zone {w[2]}", "rally": lambda: f"rally facing {w[2]}",
                     "stop": lambda: "no second action", "mount": lambda: "mount up", "dismount": lambda: "dismount",
                     "disengage": lambda: "disengage",
                     "hold": lambda: "keep contact with the enemy",
                     "break": lambda: "break contact (remove the stands in contact)"}
            if verb in texts and (verb not in ("turn", "form", "engage", "enter", "shift", "rally") or len(w) > 2):
                return f"{u.name}: {texts[verb]()}"
        if w[0] == "daimyo" and len(w) == 2:
            return f"move the Daimyo to {w[1]} (ends the phase)"
        return action

    def _unit_view(self, u: Unit) -> JSON:
        return {"id": u.uid, "side": u.side, "name": u.name, "class": u.cls, "weapon": u.weapon,
                "stands": u.stands, "start": u.start, "zone": u.zone, "facing": DIRS[u.facing],
                "formation": u.form, "hits": u.hits, "fired": u.fired, "reacted": u.reacted,
                "mounted": u.mounted, "quality": self.quality(u), "status": u.status,
                "engaged": [{"facet": f, "enemy": e} for f, e in self.contacts_of(u.uid)]}

    def observation(self, seat: int | None) -> JSON:
        p = self.pend
        pending: JSON = {"decision": p.get("step"), "seat": p.get("seat"), "prompt": self.prompt()}
        for k in ("unit", "target", "trig", "facet"):
            if p.get(k) is not None:
                pending[k] = p[k]
        if self.att is not None:
            pending["attack"] = {k: self.att[k] for k in ("a", "t", "stands", "cv", "dice")}
        declared = [f"fire {f} {t}" for f, t in self.fire_decl[seat]] if seat is not None else []
        allocs = {uid: a for uid, a in sorted(self.alloc.items())
                  if self.alloc_open or len(self.enemies_engaged(uid)) == 1
                  or (seat is not None and self.u(uid).side == seat)}
        thirds = [self.values(s) for s in (0, 1)]
        return {
            "game": "honourable-victory", "battle": self.battle_id, "battle_name": self.battle_name,
            "seats": list(SIDES), "clans": list(self.clans), "daimyo_names": list(self.daimyo_names),
            "turn": self.turn, "turn_limit": self.opts["turn_limit"], "initiative": self.init,
            "width": self.table.width, "limit": self.table.limit,
            "zones": self.table.zones(),
            "reserve_zones": [self.table.reserve_zones(0), self.table.reserve_zones(1)],
            "terrain": {z: list(f) for z, f in sorted(self.table.terrain.items())},
            "escarpments": sorted(sorted(e) for e in self.table.escarpments),
            "board": {"units": [self._unit_view(u) for u in self.units.values()],
                      "daimyo": list(self.daimyo)},
            "tally": list(self.tally), "start_units": list(self.start_units),
            "third_value": [t[0] for t in thirds], "breakpoint": [t[1] for t in thirds],
            "uncontested": [self.uncontested(0), self.uncontested(1)],
            "pending": pending, "declared": declared, "allocations": allocs,
            "to_move": self.to_move(),
            "result": self._result.to_json() if self._result else None,
        }

    def secrets(self, seat: int | None) -> set[str]:
        """The other side's fire declarations and stand allocations, until revealed."""
        out: set[str] = set()
        for s in (0, 1):
            if s == seat:
                continue
            out.update(f"fire {f} {t}" for f, t in self.fire_decl[s])
            if not self.alloc_open:
                for uid, a in self.alloc.items():
                    if self.u(uid).side == s and len(self.enemies_engaged(uid)) > 1:
                        out.add(f"alloc {uid} " + " ".join(f"{f}={n}" for f, n in a.items()))
        return out

    def determinize(self, seat: int, rng: Rng) -> HVState:
        """The RNG resampled, and the other side's undisclosed declarations re-drawn at random."""
        s = self.clone()
        s.rng = Rng(rng.next64())
        s.forced = []
        other = 1 - seat
        if s.pend.get("step") == "fire" and s.pend.get("seat") == seat and s.pend.get("done", 0) >= 1:
            s.fire_decl[other] = []
            while True:
                opts = s._fire_actions(other)
                if not opts or rng.randbelow(len(opts) + 1) == len(opts):
                    break
                _, f, t = rng.choice(opts).split()
                s.fire_decl[other].append((f, t))
        if s.pend.get("step") == "alloc":
            for uid in list(s.alloc):
                u = s.u(uid)
                if u.side == other and len(s.enemies_engaged(uid)) > 1:
                    words = rng.choice(s._alloc_actions(u)).split()
                    s.alloc[uid] = {p.split("=")[0]: int(p.split("=")[1]) for p in words[2:]}
        s.events = self.events
        return s

    def heuristic(self, seat: int) -> float:
        res = self._result
        if res is not None:
            return 0.0 if res.winner is None else (1.0 if res.winner == seat else -1.0)
        mat = [0.0, 0.0]
        for side in (0, 1):
            start = sum(u.start for u in self.units.values() if u.side == side) or 1
            mat[side] = sum(u.stands - u.hits / 2 for u in self.units.values()
                            if u.side == side and u.status != "routed") / start
        zones = (self.uncontested(seat) - self.uncontested(1 - seat)) / len(self.table.zones())
        broken = [min(1.0, self.tally[k] / max(1, self.values(k)[1])) for k in (0, 1)]
        val = 0.5 * (mat[seat] - mat[1 - seat]) + 0.2 * zones + 0.3 * (broken[1 - seat] - broken[seat])
        for k, sign in ((seat, -1.0), (1 - seat, 1.0)):
            if self.off_table(k) > len(self.on_table(k)):  # in general retreat at the next victory phase
                val += 0.5 * sign
        return max(-1.0, min(1.0, val))

    # ------------------------------------------------------------ JSON
    def to_json(self) -> JSON:
        return {
            "battle": self.battle_id, "battle_name": self.battle_name, "clans": list(self.clans),
            "daimyo_names": list(self.daimyo_names), "options": dict(self.opts),
            "table": {"width": self.table.width, "limit": self.table.limit, "reserves": self.table.reserves,
                      "terrain": {z: list(f) for z, f in sorted(self.table.terrain.items())},
                      "escarpments": sorted(sorted(e) for e in self.table.escarpments)},
            "turn": self.turn, "init": self.init,
            "units": [u.to_json() for u in self.units.values()],
            "contacts": [list(c) for c in self.contacts], "daimyo": list(self.daimyo),
            "tally": list(self.tally), "start_units": list(self.start_units), "pend": dict(self.pend),
            "fire_decl": [[list(d) for d in ds] for ds in self.fire_decl],
            "alloc": {k: dict(v) for k, v in self.alloc.items()}, "alloc_open": self.alloc_open,
            "attacks": [list(a) for a in self.attacks], "att": self.att, "daimyo_used": list(self.daimyo_used),
            "mover": self.mover, "chosen": list(self.chosen), "cur": self.cur,
            "rng": self.rng.state, "forced": list(self.forced),
            "result": self._result.to_json() if self._result else None,
        }

    @classmethod
    def from_json(cls, game: HonourableVictoryGame, d: JSON) -> HVState:
        try:
            t = d["table"]
            table = Table(int(t["width"]), int(t["limit"]), bool(t["reserves"]),
                          {z: tuple(f) for z, f in t["terrain"].items()},
                          frozenset(frozenset(e) for e in t["escarpments"]))
            s = cls(game, game.tables, table, dict(d["options"]))
            s.battle_id, s.battle_name = str(d["battle"]), str(d["battle_name"])
            s.clans, s.daimyo_names = list(d["clans"]), list(d["daimyo_names"])
            s.turn, s.init = int(d["turn"]), int(d["init"])
            s.units = {u["uid"]: Unit.from_json(u) for u in d["units"]}
            s.contacts = [(str(a), str(b), str(c), str(e)) for a, b, c, e in d["contacts"]]
            s.daimyo = list(d["daimyo"])
            s.tally, s.start_units = list(d["tally"]), list(d["start_units"])
            s.pend = dict(d["pend"])
            s.fire_decl = [[(str(f), str(x)) for f, x in ds] for ds in d["fire_decl"]]
            s.alloc = {k: dict(v) for k, v in d["alloc"].items()}
            s.alloc_open = bool(d["alloc_open"])
            s.attacks = [(str(a), str(b), int(n)) for a, b, n in d["attacks"]]
            s.att = d["att"]
            s.daimyo_used = list(d["daimyo_used"])
            s.mover, s.chosen, s.cur = int(d["mover"]), list(d["chosen"]), d["cur"]
            s.rng, s.forced = Rng(int(d["rng"])), list(d["forced"])
            s._result = Result.from_json(d["result"]) if d["result"] else None
        except (KeyError, TypeError, ValueError) as exc:
            raise FormatError(f"honourable-victory state: bad or missing field {exc}") from exc
        return s

    def __repr__(self) -> str:
        return f"HVState(turn={self.turn}, pend={json.dumps(self.pend)})"
