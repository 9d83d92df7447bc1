"""Orders (003:59-96): the orders an active troop may give, carrying them out, and the
affected troop's answer: a reaction to a moving troop (case 1), the forced Attack reaction
of a used troop (case 2), an action order or a reaction of the target (cases 4 and 5)."""

from __future__ import annotations

from kassen.engine.tasks import Task
from kassen.rulesets.kensei.artillery import ArtilleryRules
from kassen.rulesets.kensei.common import (
    MACHINE_ORDERS,
    MOVE_ORDERS,
    ORDER_MARKS,
    SPIRITUAL_CLASSES,
    SPIRITUAL_ORDERS,
    STATIC_ORDERS,
    mark,
)
from kassen.rulesets.kensei.tasks import InterjectTask, MovementTask, TargetedTask, as_task


class OrderRules(ArtilleryRules):
    """The orders of the active troops and the answers they call for."""

    def _legal_orders(self, task: Task) -> list[str]:
        return self._order_actions(int(self.data["mover"]))

    def _act_orders(self, task: Task, action: str) -> None:
        self._order(int(self.data["mover"]), action)

    def _order_actions(self, s: int) -> list[str]:
        d = self.data
        act = d["act"]
        uid = act["active"][s]
        p = self.profile(s, uid)
        u = self.unit(s, uid)
        forbidden = set(p.title.forbidden_orders)
        if p.machine is not None:  # K49: the crew serves its machine
            targets = [e["id"] for e in self.alive(1 - s)]
            shots = [f"shoot {t}" for t in targets] if not act["combat"][s] and not u["unloaded"] else []
            return [o for o in MACHINE_ORDERS if o not in forbidden and (o != "reload" or u["unloaded"])] + shots
        out = [o for o in MOVE_ORDERS if o not in forbidden]
        targets = [e["id"] for e in self.alive(1 - s)]
        if not act["combat"][s]:
            out += [f"attack {t}" for t in targets] + [f"charge {t}" for t in targets]
            if "disengage" not in forbidden:
                out.append("disengage")
            if p.ranged is not None and not u["unloaded"]:
                out += [f"shoot {t}" for t in targets]
        out += [o for o in STATIC_ORDERS if o != "reload" or u["unloaded"]]
        if p.cls.ki is not None or p.troop.klass in SPIRITUAL_CLASSES:
            out += list(SPIRITUAL_ORDERS)
        return out



    def _spend(self, s: int) -> None:
        act = self.data["act"]
        act["orders"][s] = max(0, act["orders"][s] - 1)

    def _ordered(self, s: int, uid: str) -> None:
        ordered = self.data["act"]["ordered"][s]
        if uid not in ordered:
            ordered.append(uid)

    def _order(self, s: int, action: str) -> None:
        d = self.data
        act = d["act"]
        uid = act["active"][s]
        u = self.unit(s, uid)
        self._spend(s)
        self._ordered(s, uid)
        act["turn_of"] = 1 - s
        verb, _, target = action.partition(" ")
        order = self.tables.sheet.orders.get(verb)
        src = f" ({order.source})" if order else ""
        self.emit("order", {"seat": s, "unit": uid, "order": action},
                  f"{self.label(s, uid)}: {order.name if order else verb}{' ' + self.label(1 - s, target) if target else ''}{src}")
        if verb == "shoot" and self.profile(1 - s, target).machine is not None:
            self.unit(1 - s, target)["shot_at"] = True  # 003:335: a machine shot at this turn
        if verb == "shoot" and self.profile(s, uid).machine is not None:
            act["combat"][s] = True
            self._start_artillery(s, uid, 1 - s, target)  # K50: no reaction to an artillery shot
            return
        if verb in ("attack", "charge", "shoot"):
            act["combat"][s] = True
            self._targeted(s, uid, verb, target)
            return
        if verb in ORDER_MARKS:
            mark(u, verb)
        elif verb == "disengage":
            act["combat"][s] = True
        if verb in ("move", "run", "regroup", "disengage"):
            self._movement_reactions(s, uid, verb)

    def _movement_reactions(self, s: int, uid: str, verb: str) -> None:
        """Case 1 or a reaction to a moving troop (003:89-95): the opponent says whether a troop reacts."""
        q = 1 - s
        mover_spectre = self.profile(s, uid).troop.title == "spectre"
        options = ["no reaction"]
        for e in self.alive(q):
            if e["retreat"]:
                continue
            pe = self.profile(q, e["id"])
            if mover_spectre and pe.troop.klass not in SPIRITUAL_CLASSES:
                continue  # 003:254
            options.append(f"react {e['id']} opportunity-charge")
            if pe.ranged is not None and not e["unloaded"]:
                options.append(f"react {e['id']} hold-and-shoot")
        self._push(as_task(MovementTask(
            seat=q, t="movement", mover=[s, uid], options=options,
            text=f"{self.label(s, uid)} carries out a {verb} order: does one of your troops react to it at the "
                 f"table? (003:89)")))

    def _targeted(self, s: int, uid: str, verb: str, target: str) -> None:
        """An attack, charge or shot on ``target``: the affected troop's case (003:91-95)."""
        d = self.data
        act = d["act"]
        q = 1 - s
        tu = self.unit(q, target)
        tp = self.profile(q, target)
        melee = verb in ("attack", "charge")
        combat = {"attacker": [s, uid], "target": [q, target], "verb": verb, "defence": None}
        is_active = act["active"][q] == target
        if melee and tu["used"] and not is_active:
            # case 2: forced Attack reaction, no order; first the defender's active unit acts
            combat["defence"] = "forced"
            self.emit("case-2", {"unit": target},
                      f"{self.label(q, target)} has a Used Unit marker: it must fight with the Attack reaction (003:92)")
            qa = act["active"][q]
            if qa is not None and act["orders"][q] > 0 and not self._gone(q, qa):
                self._push(as_task(InterjectTask(
                    seat=q, t="interject", combat=combat,
                    options=[o for o in self._order_actions(q) if o.split()[0] in
                             (*MOVE_ORDERS, *STATIC_ORDERS, *SPIRITUAL_ORDERS)],
                    text=f"before the combat, give {self.label(q, qa)} an action order (003:92, K31)")))
                return
            self._start_combat(combat)
            return
        options: list[str] = []
        flee = "flee" not in tp.title.forbidden_orders and not tu["retreat"]
        if is_active and act["orders"][q] > 0 and not act["combat"][q] and not self._gone(q, target):
            case = 4
            if melee:
                options.append("action attack")
            elif tp.ranged is not None and not tu["unloaded"]:
                options.append("action shoot")
        else:
            case = 5
        if melee:
            options.append("reaction attack")
            if verb == "charge" and tp.ranged is not None and not tu["unloaded"]:
                options.append("reaction hold-and-shoot")
        elif tp.ranged is not None and not tu["unloaded"]:
            options.append("reaction hold-and-shoot")
        if flee:
            options.append("reaction flee")
        if not melee:
            options.append("no reaction")
        self._push(as_task(TargetedTask(
            seat=q, t="targeted", case=case, combat=combat, options=options,
            text=f"{self.label(q, target)} is the target of a {verb} by {self.label(s, uid)}: "
                 f"answer (003:{94 if case == 4 else 95})")))



    def _legal_movement(self, task: Task) -> list[str]:
        return list(task["options"])

    _legal_interject = _legal_targeted = _legal_movement

    def _act_interject(self, task: Task, action: str) -> None:
        """Case 2: the defender's active troop's action order, then the combat (003:92)."""
        self.stack.pop()
        act = self.data["act"]
        q = int(task["seat"])
        qa = act["active"][q]
        self._spend(q)
        self._ordered(q, qa)
        verb = action.split()[0]
        u = self.unit(q, qa)
        self.emit("order", {"seat": q, "unit": qa, "order": action},
                  f"{self.label(q, qa)}: {self.tables.sheet.orders[verb].name} (before the combat, 003:92)")
        if verb in ORDER_MARKS:
            mark(u, verb)
        self._start_combat(task["combat"])

    def _act_movement(self, task: Task, action: str) -> None:
        """A reaction to a moving troop (003:89-95)."""
        self.stack.pop()
        q = int(task["seat"])
        if action == "no reaction":
            return
        _, rid, what = action.split()
        s, mover = task["mover"]
        self._react_spend(q, rid)
        self.emit("reaction", {"seat": q, "unit": rid, "order": what},
                  f"{self.label(q, rid)} reacts: {self.tables.sheet.orders[what].name} on {self.label(s, mover)} "
                  f"({self.tables.sheet.orders[what].source})")
        verb = "charge" if what == "opportunity-charge" else "shoot"
        self._start_combat({"attacker": [q, rid], "target": [s, mover], "verb": verb, "defence": None,
                            "reaction": True})

    def _act_targeted(self, task: Task, action: str) -> None:
        """The target's answer: an action order (case 4), a reaction (case 5) or none (003:94-95)."""
        self.stack.pop()
        act = self.data["act"]
        combat = task["combat"]
        q, target = combat["target"]
        s, uid = combat["attacker"]
        case = task["case"]
        if action == "no reaction":
            self._start_combat(combat)
            return
        kind, what = action.split()
        if case == 4 or act["orders"][q] > 0:
            self._spend(q)
        self._ordered(q, target)
        if kind == "action":
            act["combat"][q] = True
        label = {"attack": "Attack", "shoot": "Shoot", "hold-and-shoot": "Hold and shoot", "flee": "Flee"}[what]
        self.emit("reaction", {"seat": q, "unit": target, "answer": action},
                  f"{self.label(q, target)} answers with the {kind} order {label} (003:{94 if case == 4 else 95})")
        if what == "flee":
            self.unit(q, target)["fleeing"] = True
            self.emit("flee", {"unit": target}, f"{self.label(q, target)} flees: a Fleeing Unit marker; make the flee "
                                                f"movement at the table, the {combat['verb']} finds no one (K32)")
            return
        if what == "hold-and-shoot":
            combat["hold"] = True
        if combat["verb"] == "shoot":
            if what in ("shoot", "hold-and-shoot"):
                combat["shoot_back"] = True
            self._start_combat(combat)
            return
        combat["defence"] = "action" if kind == "action" else "reaction"
        self._start_combat(combat)

    def _react_spend(self, q: int, rid: str) -> None:
        act = self.data["act"]
        if act["active"][q] == rid or act["orders"][q] > 0:
            self._spend(q)
        self._ordered(q, rid)
