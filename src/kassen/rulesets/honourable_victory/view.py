"""What the players see: the prompt, action descriptions, the observation and its secrets."""

from __future__ import annotations

from collections.abc import Callable

from kassen.rulesets.honourable_victory.common import JSON, SIDES, Unit
from kassen.rulesets.honourable_victory.reactions import ReactionRules
from kassen.rulesets.honourable_victory.table import DIRS


class ViewRules(ReactionRules):
    """Prompt, descriptions, observation and secrets (UI-free text)."""

    def prompt_text(self) -> str:
        p = self._top()
        step = p.get("t")
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
        if self._result is not None or not self.stack:
            return ""
        return f"{SIDES[self.stack[-1]['seat']]}: {self.prompt_text()}"

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
                     "intercept": lambda: f"intercept {self._top().get('unit')}",
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
        p = self._top()
        pending: JSON = {"decision": p.get("t"), "seat": p.get("seat"), "prompt": self.prompt()}
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
            "to_move": None if self._result is not None or not self.stack else self.stack[-1]["seat"],
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
