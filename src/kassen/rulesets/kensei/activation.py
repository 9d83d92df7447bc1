"""Unit activation and orders (003:50-57): who activates first, the active troops (or a clan
ability), their Order rolls, the alternating orders and the Used Unit markers; the extra
activation of a player whose opponent has used all his troops."""

from __future__ import annotations

from kassen.engine.tasks import Task
from kassen.rulesets.kensei.turn import TurnRules


class ActivationRules(TurnRules):
    """The activation rounds of a turn."""

    def _auto_activation_round(self, task: Task) -> bool:
        self._activation_round()
        return True

    def _auto_order_roll(self, task: Task) -> bool:
        self._order_roll()
        return True

    def _auto_orders(self, task: Task) -> bool:
        return self._next_order()

    def _auto_end_activation(self, task: Task) -> bool:
        self._end_activation()
        return True

    def _legal_first(self, task: Task) -> list[str]:
        return ["first me", "first opponent"]

    def _act_first(self, task: Task, action: str) -> None:
        d = self.data
        s = int(d["mover"])
        first = s if action == "first me" else 1 - s
        d["act"] = {"first": first, "active": [None, None], "orders": [0, 0], "ki": [False, False],
                    "combat": [False, False], "turn_of": first, "ordered": [[], []], "solo": None}
        self.phase = "activate"
        d["mover"] = first
        d["prompt"] = "choose your active troop (003:53)"
        self.emit("first", {"seat": first}, f"{self.name(first)} activates a troop first")

    def _legal_activate(self, task: Task) -> list[str]:
        s = int(self.data["mover"])
        return [f"activate {uid}" for uid in self.can_activate(s)] + self._ability_actions(s)

    def _act_activate(self, task: Task, action: str) -> None:
        d = self.data
        s = int(d["mover"])
        if action.startswith("use "):
            self._use_ability(s, *action.split()[1:])
            self.phase = "activation-round"  # who activates first is asked again (K9)
            return
        uid = action.split()[1]
        act = d["act"]
        act["active"][s] = uid
        if d["hunt"][s]:
            d["hunting"][s], d["hunt"][s] = uid, False
        self.emit("activate", {"seat": s, "unit": uid}, f"{self.name(s)} activates {self.label(s, uid)}")
        if act.get("solo") is None and act["active"][1 - s] is None:
            d["mover"] = 1 - s
        else:
            self.phase = "order-roll"

    def _activation_round(self) -> None:
        d = self.data
        avail = [self.can_activate(0), self.can_activate(1)]
        if not avail[0] and not avail[1]:
            self._end_turn()
            return
        if d["extra"] is not None:  # the extra activation was the turn's last (003:57)
            self._end_turn()
            return
        if not avail[0] or not avail[1]:
            s = 0 if avail[0] else 1
            d["extra"] = s
            self.emit("extra", {"seat": s}, f"{self.name(1 - s)} has used all his troops: {self.name(s)} makes one "
                                            f"extra activation, then the turn ends (003:57)")
            d["act"] = {"first": s, "active": [None, None], "orders": [0, 0], "ki": [False, False],
                        "combat": [False, False], "turn_of": s, "ordered": [[], []], "solo": s}
            self.phase = "activate"
            d["mover"] = s
            d["prompt"] = "choose the troop for the extra activation"
            return
        d["act"] = None
        self.phase = "first"
        d["mover"] = d["initiative"]
        d["prompt"] = "the player with the initiative chooses who activates a troop first (003:53)"

    def _ini(self, s: int, uid: str) -> int:
        u = self.unit(s, uid)
        p = self.profile(s, uid)
        return p.cls.ini - (1 if u["dishonoured"] else 0) + (2 if self.data["bushido"][s] else 0)

    def _order_roll(self) -> None:
        d = self.data
        act = d["act"]
        for s in (0, 1):
            uid = act["active"][s]
            if uid is None:
                continue
            roll = self.die()
            ini = self._ini(s, uid)
            band = self.tables.order_band(roll + ini)
            act["orders"][s], act["ki"][s] = band.orders, band.ki
            self.emit("order-roll", {"seat": s, "unit": uid, "roll": roll, "ini": ini, "orders": band.orders,
                                     "ki": band.ki},
                      f"Order roll for {self.label(s, uid)}: {roll} + INI {ini} = {roll + ini}: {band.orders} order(s)"
                      + (", Ki ability active this turn" if band.ki else "") + f" ({band.source})")
        act["turn_of"] = act["first"]
        self.phase = "orders"

    def _next_order(self) -> bool:
        """Whose order it is (alternating, 003:55); False when a decision is due."""
        d = self.data
        act = d["act"]
        s = act["turn_of"]
        if act["orders"][s] <= 0 or act["active"][s] is None or self._gone(s, act["active"][s]):
            s = 1 - s
            if act["orders"][s] <= 0 or act["active"][s] is None or self._gone(s, act["active"][s]):
                self.phase = "end-activation"
                return True
        act["turn_of"] = s
        d["mover"] = s
        d["prompt"] = f"an order for {self.label(s, act['active'][s])} ({act['orders'][s]} left)"
        return False

    def _end_activation(self) -> None:
        d = self.data
        act = d["act"]
        for s in (0, 1):
            for uid in set(act["ordered"][s]) | ({act["active"][s]} if act["active"][s] else set()):
                self.unit(s, uid)["used"] = True
        d["hunting"] = [None, None]
        self.emit("used", {}, "Used Unit markers placed on every troop that got an order (003:56)")
        if act.get("solo") is not None:
            self._end_turn()
        else:
            self.phase = "activation-round"
