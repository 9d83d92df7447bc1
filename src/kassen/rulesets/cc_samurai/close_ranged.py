# mypy: disable-error-code="misc"
# (the methods type ``self`` as the whole CCState, which mypy allows only for supertypes: "misc")
"""Close and Ranged Combat, step by step: declaration (First Strike and its windows), Leader
inspiration, the roll, hits by symbol, gaining ground, bonus close combat and battling back.
The dice arithmetic itself is in combat.py.

A rule mixin of ``CCState`` (state.py); the data it works on: ``common.CCStateData``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from mypy_extensions import trait

from kassen.engine.dice import FACE_OF, Face, face_values
from kassen.engine.events import LazyText
from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai import dragons
from kassen.rulesets.cc_samurai.board import Unit
from kassen.rulesets.cc_samurai.combat import dice_count, explain_roll, score_faces
from kassen.rulesets.cc_samurai.common import LEADER_NAME, CCStateData, as_json
from kassen.rulesets.cc_samurai.data import UnitType
from kassen.rulesets.cc_samurai.tasks import CombatTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


def _faces_text(before: str, faces: list[Face]) -> LazyText:
    """``before`` + the faces rolled, written only when read."""
    return lambda: before + (", ".join(f.label for f in faces) or "nothing")


def _score_text(who: str, faces: list[Face], att: UnitType, tgt: UnitType, kind: str, inspired: int) -> LazyText:
    """What a roll scored (combat.explain_roll), written only when read."""
    return lambda: f"{who} {explain_roll(Counter(faces), att, tgt, kind, inspired)}"


@trait
class CombatSequence(CCStateData):
    def start_combat(self: CCState, kind: str, ah: Hex, dh: Hex, role: str,
                     swarm: list[Hex] | None = None) -> CombatTask:
        """Declare a combat: its task goes on top of the stack (and is returned)."""
        u = self.units[ah]
        tu = self.units.get(dh)
        tl = self.leaders.get(dh) if tu is None else None
        atts = [ah, *(swarm or [])]
        cx: CombatTask = {
            "t": "combat", "seat": u.side, "kind": kind, "role": role, "step": "inspire",
            "att": self.name(ah), "att_uid": u.uid, "tgt": self.name(dh),
            "atts": [self.name(h) for h in atts], "att_uids": [self.units[h].uid for h in atts],
            "tgt_uid": tu.uid if tu else None, "tgt_lid": tl.lid if tl else None, "inspired": [],
        }
        verb = {"attack": "attacks", "bonus": "makes a bonus close combat against", "back": "battles back against",
                "first": "strikes first against"}[role]
        if kind == "ranged":
            verb = "fires at"
        target = self.unit_label(tu) if tu else f"{self.side_name(1 - u.side)} {LEADER_NAME[tl.kind] if tl else 'Leader'}"
        who = f"{self.unit_label(u)} at {self.name(ah)}"
        if swarm:
            who = f"A swarm of {len(atts)} levies from {', '.join(self.name(h) for h in atts)}"
            verb = {"attacks": "attack"}.get(verb, verb)
        self.say("combat", f"{who} {verb} the {target} at {self.name(dh)}",
                 kind=kind, role=role, att=self.name(ah), tgt=self.name(dh), atts=cx["atts"])
        if kind == "close" and role in ("attack", "bonus") and tu is not None:
            # First Strike and the Dragon cards of "enemy declares close combat": the defender may
            # answer before the dice, when he holds a card he can play there (R30, R32)
            cx["step"] = "react"
            cx["seat"] = tu.side
        self.stack.append(as_json(cx))
        return cx

    def _present_attackers(self: CCState, cx: CombatTask) -> list[Hex]:
        out = []
        for name, uid in zip(cx["atts"], cx["att_uids"]):
            h = self.b.parse(name)
            u = self.units.get(h)
            if u is not None and u.uid == uid:
                out.append(h)
        return out

    def _first_strike_possible(self: CCState, task: CombatTask) -> bool:
        """Whether First Strike could answer this declaration, whatever the defender holds:
        one attacker the target could battle back against, and a Command card in his hand."""
        return (not task.get("first_strike") and not task.get("no_back") and len(task["atts"]) == 1
                and bool(self.hands[task["seat"]]) and self.t.has_first_strike
                and self._can_battle_back(self.b.parse(task["tgt"]), self.b.parse(task["att"])))

    def _legal_combat(self: CCState, task: CombatTask) -> list[str]:
        step = task["step"]
        if step == "react":
            # First Strike (a Command card) and a Dragon card of this window answer the same
            # declaration independently, in either order (R47); Ambush excludes First Strike
            fs = []
            if (self._first_strike_possible(task)
                    and any(self.t.command_ids[c] == "first-strike" for c in self.hands[task["seat"]])):
                fs = ["first-strike"]
            return [*fs, *dragons.actions(self, task["seat"], "declare", task), "pass"]
        if step in ("prep", "after_att", "after_def", "hollow"):
            window = {"prep": "before-roll", "after_att": "after-roll", "after_def": "after-enemy-roll",
                      "hollow": "enemy-success"}[step]
            return [*dragons.actions(self, task["seat"], window, task), "pass"]
        if step == "inspire":
            return ["inspire", "no-inspire"]
        if step == "flags":
            return self._flag_choices(task)
        if step == "gain":
            present = self._present_attackers(task)
            if len(present) > 1:
                return [*(f"advance {self.name(h)}" for h in present), "stay"]
            return ["advance", "stay"]
        if step == "bonus":
            h = self.b.parse(task["tgt"])
            return [*(f"bonus {self.name(n)}" for n in sorted(self.close_targets(h))), "no-bonus"]
        if step == "back":
            present = [h for h in self._present_attackers(task) if self._can_battle_back(self.b.parse(task["tgt"]), h)]
            if len(present) > 1:
                return [*(f"battle-back {self.name(h)}" for h in present), "no-battle-back"]
            revenge = [a for a in dragons.actions(self, task["seat"], "before-back", task)]
            return ["battle-back", *revenge, "no-battle-back"]
        return []

    def _auto_combat(self: CCState, cx: CombatTask) -> bool:
        step = cx["step"]
        ah = self.b.parse(cx["att"])
        if step == "react":
            # the defender is asked when First Strike or a Dragon card of this window could
            # answer, judged on public information only: never on the cards he holds (R32)
            if self._first_strike_possible(cx) or dragons.window_opens(self, cx["seat"], "declare", cx):
                return False
            self._end_react(cx)
            return True
        if step == "inspire":
            u = self.units.get(ah)
            if u is None or u.uid != cx["att_uid"]:
                self.stack.pop()
                return True
            if "insp_queue" not in cx:
                cx["insp_queue"] = [
                    self.name(h) for h in self._present_attackers(cx)
                    if cx["kind"] == "close" and self.can_inspire(h, self.units[h])
                ]
            if cx["insp_queue"] and self.honor[u.side] >= 1:
                return False
            del cx["insp_queue"]
            cx["step"] = "prep"
            return True
        if step == "prep":
            cx["seat"] = self.units[ah].side
            if dragons.window_opens(self, cx["seat"], "before-roll", cx):
                return False
            cx["step"] = "roll"
            return True
        if step == "roll":
            self._combat_roll(cx)
            return True
        if step == "after_att":
            cx["seat"] = self.units[ah].side if ah in self.units else cx["seat"]
            if dragons.window_opens(self, cx["seat"], "after-roll", cx):
                return False
            cx["step"] = "after_def"
            return True
        if step == "after_def":
            dh = self.b.parse(cx["tgt"])
            tu = self.units.get(dh)
            if tu is not None and tu.uid == cx["tgt_uid"] and dragons.window_opens(self, tu.side, "after-enemy-roll", cx):
                cx["seat"] = tu.side
                return False
            cx["step"] = "resolve"
            return True
        if step == "resolve":
            self._combat_resolve(cx)
            return True
        if step == "flags":
            return self._combat_flags_auto(cx)
        if step == "post":
            self._combat_post(cx)
            return True
        return False

    def _act_combat(self: CCState, cx: CombatTask, action: str) -> None:
        step = cx["step"]
        if step == "react":
            seat = cx["seat"]
            if action == "first-strike":
                self._first_strike(cx)  # the window stays open for a Dragon card (R47)
            elif action.startswith("dragon "):
                dragons.play(self, seat, action, cx)
                if self.stack[-1] is not cx:  # Ambush: the defender's strike has begun
                    self._end_react(cx)
            else:
                self._end_react(cx)
            return
        if step == "hollow":
            if action.startswith("dragon "):
                dragons.play(self, cx["seat"], action, cx)  # Hollow Victory: no gain ground, no bonus
                self.stack[:] = [t for t in self.stack if t is not cx]
            else:
                cx["step"] = "gain"
                cx["seat"] = 1 - cx["seat"]
            return
        if step in ("prep", "after_att", "after_def"):
            if action.startswith("dragon "):
                dragons.play(self, cx["seat"], action, cx)
            cx["step"] = {"prep": "roll", "after_att": "after_def", "after_def": "resolve"}[step]
            if step == "after_att" and cx.get("reroll"):
                self._reroll(cx)
            return
        if step == "inspire":
            at = cx["insp_queue"].pop(0)
            if action == "inspire":
                u = self.units[self.b.parse(at)]
                self.lose_honor(u.side, 1, f"a Leader inspires the {self.ut(u).name} at {at}")
                cx["inspired"].append(at)
        elif step == "flags":
            self._choose_flags(cx, action)
        elif step == "gain":
            if action.startswith("advance"):
                if action != "advance":
                    cx["att"] = action.split()[1]
                    cx["att_uid"] = self.units[self.b.parse(cx["att"])].uid
                self._gain_ground(cx)
            else:
                self.stack.pop()
        elif step == "bonus":
            self.stack.pop()
            if action != "no-bonus":
                nh = self.b.parse(action.split()[1])
                bonus = self.start_combat("close", self.b.parse(cx["tgt"]), nh, "bonus")
                if cx["role"] == "bonus":
                    bonus["second_bonus"] = True
        elif step == "back":
            self.stack.pop()
            if action.startswith("dragon "):
                dragons.play(self, cx["seat"], action, cx)
                back = self.start_combat("close", self.b.parse(cx["tgt"]), self._battle_back_target(cx), "back")
                back["dice_override"] = cx.get("dice_n", 0)  # Revenge
            elif action.startswith("battle-back"):
                target = self.b.parse(action.split()[1]) if action != "battle-back" else self._battle_back_target(cx)
                self.start_combat("close", self.b.parse(cx["tgt"]), target, "back")

    def _first_strike(self: CCState, cx: CombatTask) -> None:
        """First Strike is played: the card leaves the hand at once; the defending unit battles
        first when the declaration window closes (:meth:`_end_react`), so that a Dragon card may
        still answer the same declaration (R47)."""
        dh = self.b.parse(cx["tgt"])
        side = self.units[dh].side
        cid = next(c for c in self.hands[side] if self.t.command_ids[c] == "first-strike")
        self.own_cards()
        self.hands[side].remove(cid)
        self.ti["first_strikes"] = [*self.ti.get("first_strikes", []), {"side": side, "card": cid}]
        card = self.t.command["first-strike"]
        self.say("play", f"{self.side_name(side)} plays {card.name}: {card.text}", side=side, card=cid, slug="first-strike")
        cx["first_strike"] = True

    def _end_react(self: CCState, cx: CombatTask) -> None:
        """The defender's answers to a declared close combat are over: the attacker's side
        decides on inspiration next; with First Strike played, the defending unit battles first
        (it then does not battle back; the attacker battles only if still in place)."""
        cx["step"] = "inspire"
        cx["seat"] = 1 - cx["seat"]
        if cx.get("first_strike"):
            self.strike_first(cx, 0)

    def strike_first(self: CCState, cx: CombatTask, extra_dice: int) -> None:
        """The defender battles first (First Strike, Ambush); no battle back afterwards."""
        dh, ah = self.b.parse(cx["tgt"]), self.b.parse(cx["att"])
        cx["no_back"] = True
        first = self.start_combat("close", dh, ah, "first")
        if extra_dice:
            first["extra_dice"] = extra_dice

    def _battle_back_target(self: CCState, cx: CombatTask) -> Hex:
        dh = self.b.parse(cx["tgt"])
        return next(h for h in self._present_attackers(cx) if self._can_battle_back(dh, h))

    def combat_dice(self: CCState, kind: str, ah: Hex, dh: Hex, inspired: bool) -> int:
        """Steps 1-3 of both combat procedures: base dice, terrain maxima, then additions."""
        u = self.units[ah]
        ut = self.ut(u)
        moved = self.ti["moved"].get(f"u:{u.uid}", 0) > 0
        bonus = 1 if inspired else 0
        effect = self.turn_effect(u)
        if (effect == "charge" and kind == "close") or effect == "shogun":
            bonus += 1
        bonus += dragons.dice_bonus(self, kind, u.uid, u.type, u.side)
        return dice_count(ut, kind, self.b.distance(ah, dh), moved, u.blocks, self.ter(ah), self.ter(dh), bonus)

    def _combat_roll(self: CCState, cx: CombatTask) -> None:
        ah, dh = self.b.parse(cx["att"]), self.b.parse(cx["tgt"])
        u = self.units[ah]
        kind = cx["kind"]
        atts = self._present_attackers(cx)
        n = sum(self.combat_dice(kind, h, dh, self.name(h) in cx["inspired"]) for h in atts)
        n += cx.get("extra_dice", 0)
        if "dice_override" in cx:
            n = cx["dice_override"]  # Revenge: as many dice as the attacker rolled
        if "max_dice" in cx:
            n = min(n, cx["max_dice"])  # Practice of Aikido: nothing raises it
        cx["dice_n"] = n
        faces = self._roll_for(u, kind, n)
        roller = self.unit_label(u) if len(atts) == 1 else f"The swarm of {len(atts)} levies"
        self.say("roll", _faces_text(f"{roller} rolls {n} {'die' if n == 1 else 'dice'}: ", faces),
                 faces=face_values(faces), dice=n)
        cx["faces"] = face_values(faces)
        cx["step"] = "after_att"

    def _roll_for(self: CCState, u: Unit, kind: str, n: int) -> list[Face]:
        faces = self.roll(n)
        if self.ut(u).bodyguard and kind == "close":
            swords = faces.count(Face.SWORDS)
            extra = self.roll(swords)
            if extra:
                self.say("reroll", f"The bodyguards reroll {swords} sword{'s' if swords > 1 else ''}: "
                         f"{', '.join(f.label for f in extra)}", faces=face_values(extra))
            faces = faces + extra
        return faces

    def _reroll(self: CCState, cx: CombatTask) -> None:
        """Spirit of Hachiman: all the dice are rolled again; the second roll stands."""
        u = self.units[self.b.parse(cx["att"])]
        faces = self._roll_for(u, cx["kind"], cx["dice_n"])
        self.say("roll", _faces_text(f"{self.unit_label(u)} rolls again {cx['dice_n']} dice: ", faces),
                 faces=face_values(faces), dice=cx["dice_n"])
        cx["faces"] = face_values(faces)

    def _combat_resolve(self: CCState, cx: CombatTask) -> None:
        """Score the roll: hits, Honor & Fortune, casualty checks, then flags."""
        ah, dh = self.b.parse(cx["att"]), self.b.parse(cx["tgt"])
        u = self.units[ah]
        ut = self.ut(u)
        side = u.side
        kind = cx["kind"]
        faces = [FACE_OF[f] for f in cx["faces"]]
        tu = self.units.get(dh)
        tl = self.leaders.get(dh)
        cx["step"] = "post"
        if tu is None:
            # Combat Against a Leader Alone in a Hex
            assert tl is not None
            bow_blank = kind == "ranged" and not ut.ranged_sword_hits and not self.t.rules.bow_hits_lone_leader
            if Face.SWORDS in faces and bow_blank:
                self.say("no_sword_hits", f"{ut.name} score no hit with a sword at range: the lone Leader is not hit")
            if Face.SWORDS in faces and not bow_blank:
                self.remove_leader(dh, "killed", side)
            else:
                self.say("leader_survives", f"The lone {LEADER_NAME[tl.kind]} at {self.name(dh)} is not hit and must retreat or commit seppuku")
                self._push_leader_retreat(dh)
            return
        tt = self.ut(tu)
        sc = score_faces(faces, ut, tt, kind, len(cx["inspired"]))
        self.say("score", _score_text(self.unit_label(u) if len(cx.get("atts", [])) <= 1 else "The attack",
                                      faces, ut, tt, kind, len(cx["inspired"])))
        if sc.swords_ignored:
            self.say("ignore_swords", f"{tt.name} ignores {sc.swords_ignored} sword{'s' if sc.swords_ignored > 1 else ''} "
                     "(superior rank/stature)")
        hits, honor = sc.hits, sc.honor
        if honor and dragons.has_effect(self, "head-collector", side, u.uid):
            honor *= 2
        if honor:
            self.gain_honor(side, honor, "Honor & Fortune rolled in combat")
        flags = sc.flags * (2 if cx.get("double_flags") else 1)
        cx["flags"] = flags
        ld = self.attached_leader(dh)
        if kind == "ranged" and self.turn_effect(u) == "hold":
            # remembered so that Shot Proof Armor after the second shot can cancel both (R34)
            shots = dict(self.ti.get("hold_shots", {}))
            shots[f"{u.uid}>{tu.uid}"] = shots.get(f"{u.uid}>{tu.uid}", 0) + min(hits, tu.blocks)
            self.ti["hold_shots"] = shots
        eliminated = self.hit_unit(dh, hits, side, f"{hits} hit{'s' if hits != 1 else ''}") if hits else False
        if self._result is not None:
            return
        if hits and ld is not None:
            self._casualty_check(dh, ld, kind, eliminated, side)
            # finished(), not ``self._result``: mypy keeps the attribute narrowed to None past the
            # call (above), and the compiled build would trust that
            if self.finished():
                return
        if eliminated:
            if dh in self.leaders:
                self._push_leader_retreat(dh)
            return
        if dh in self.units and flags:
            cx["step"] = "flags"

    def _combat_post(self: CCState, cx: CombatTask) -> None:
        """After hits, checks and retreats: gain ground and bonus combat, or battle back."""
        dh = self.b.parse(cx["tgt"])
        present = self._present_attackers(cx)
        if not present or cx["kind"] != "close" or cx["role"] in ("back", "first"):
            self.stack.pop()
            return
        ah = present[0]
        att = self.units[ah]
        if dh not in self.units and dh not in self.leaders:
            if self.ter(dh).impassable or (ah in self.leaders and self.b.is_half(dh)):
                self.stack.pop()
                return
            cx["step"] = "hollow" if dragons.window_opens(self, 1 - att.side, "enemy-success", cx) else "gain"
            cx["seat"] = 1 - att.side if cx["step"] == "hollow" else att.side
            return
        tu = self.units.get(dh)
        if cx.get("no_back"):
            self.say("no_battle_back", "No battle back: the defender already struck first")
            self.stack.pop()
            return
        if tu is not None and tu.uid == cx["tgt_uid"] and any(self._can_battle_back(dh, h) for h in present):
            cx["step"] = "back"
            cx["seat"] = tu.side
            return
        self.stack.pop()

    def _can_battle_back(self: CCState, dh: Hex, ah: Hex) -> bool:
        tu = self.units[dh]
        cav = self.ut(tu).cavalry
        if self.ter(dh).cap_on("close", cav) == 0 or self.ter(ah).cap_into("close", cav) == 0:
            return False
        return self.combat_dice("close", dh, ah, False) > 0

    def _gain_ground(self: CCState, cx: CombatTask) -> None:
        ah, dh = self.b.parse(cx["att"]), self.b.parse(cx["tgt"])
        self.own_pieces()
        u = self.units.pop(ah)
        self.units[dh] = u
        ld = self.leaders.get(ah)
        if ld is not None and ld.side == u.side:
            del self.leaders[ah]
            self.leaders[dh] = ld
        self.say("gain_ground", f"{self.unit_label(u)} gains ground from {self.name(ah)} to {self.name(dh)}",
                 frm=self.name(ah), to=self.name(dh))
        ut = self.ut(u)
        qualified = ut.cavalry or dh in self.leaders
        legendary = dragons.has_effect(self, "legendary-combat", u.side, u.uid)
        if cx["role"] == "attack":
            may = qualified or legendary
        else:  # Legendary Combat: a unit that already qualified may make a second bonus close combat
            may = cx["role"] == "bonus" and legendary and qualified and not cx.get("second_bonus")
        eligible = may and not self.ter(dh).forbids_battle_on_entry(ut.cavalry) and bool(self.close_targets(dh))
        if eligible:
            cx["step"] = "bonus"
        else:
            self.stack.pop()
