"""The Hand-to-Hand Combat Resolution Phase (001:335-446): engaged units' hit marker,
nominating opponents (allocation), attacks, overlapping and outflanking re-throws, the
Daimyo's re-throw."""

from __future__ import annotations

from itertools import combinations_with_replacement

from kassen.engine.events import Event, plural
from kassen.rulesets.honourable_victory.common import CV_MAX, CV_MIN, SIDES, Unit, uid_key
from kassen.rulesets.honourable_victory.firing import FiringRules
from kassen.rulesets.honourable_victory.tasks import AllocTask, DaimyoTask, RerollTask


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


class HandToHandRules(FiringRules):
    """Allocation, attacks and re-throws."""

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
        self._decide(AllocTask(t="alloc", seat=self.init))
        self._next_alloc()

    def _needs_alloc(self, seat: int) -> list[Unit]:
        return [u for u in self.on_table(seat) if self.engaged(u.uid) and u.uid not in self.alloc]

    def _alloc_actions(self, u: Unit) -> list[str]:
        foes = self.enemies_engaged(u.uid)
        out = []
        for comp in _compositions(u.stands, len(foes)):
            out.append(f"alloc {u.uid} " + " ".join(f"{f}={n}" for f, n in zip(foes, comp)))
        return out

    def _legal_alloc(self, task: AllocTask) -> list[str]:
        out: list[str] = []
        for u in self._needs_alloc(task["seat"]):
            out.extend(self._alloc_actions(u))
        return out

    def _act_alloc(self, task: AllocTask, action: str) -> None:
        parts = action.split()
        uid = parts[1]
        self.alloc[uid] = {p.split("=")[0]: int(p.split("=")[1]) for p in parts[2:]}
        seat = task["seat"]
        self._ev.append(Event("allocate", {"unit": uid, "alloc": self.alloc[uid]},
                              f"{SIDES[seat]} allocates {uid}: {' '.join(parts[2:])}", visible_to=(seat,)))
        self._next_alloc()

    def _next_alloc(self) -> None:
        for seat in (self.init, 1 - self.init):
            if self._needs_alloc(seat):
                self._decide(AllocTask(t="alloc", seat=seat))
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
        return max(CV_MIN, min(CV_MAX, cv))

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
                    self._decide(RerollTask(t="reroll", seat=ua.side))
                    return
                st["stage"] = "daimyo"
            if st["stage"] == "daimyo":
                if st["dice"] and self._daimyo_reroll_ok(ua):
                    self._decide(DaimyoTask(t="daimyo", seat=ua.side))
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

    def _legal_reroll(self, task: RerollTask) -> list[str]:
        st = self.att
        assert st is not None
        kind = self.reroll_kind(self.u(st["a"]), self.u(st["t"]))
        hi = 2 if kind == "overlap" else len(st["dice"])
        return ["accept", *("reroll " + " ".join(map(str, c)) for c in _submultisets(st["dice"], 1, hi))]

    def _act_reroll(self, task: RerollTask, action: str) -> None:
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

    def _legal_daimyo(self, task: DaimyoTask) -> list[str]:
        return ["accept", "daimyo"]

    def _act_daimyo(self, task: DaimyoTask, action: str) -> None:
        st = self.att
        assert st is not None
        if action == "daimyo":
            st["dice"] = self._roll(len(st["dice"]))
            self.daimyo_used.append(st["a"])
            self._say("reroll", f"{st['a']} makes a Daimyo's re-throw: {st['dice']}", unit=st["a"],
                      kind="daimyo", faces=st["dice"])
        st["stage"] = "done"
        self._run_attacks()
