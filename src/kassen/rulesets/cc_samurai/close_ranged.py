"""Close and Ranged Combat, step by step: declaration (First Strike and its windows), Leader
inspiration, the roll, hits by symbol, gaining ground, bonus close combat and battling back.
The dice arithmetic itself is in combat.py.

Rules functions of the state (``s: CCState``, state.py); the data they read: ``common.CCStateData``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from kassen.engine.dice import FACE_OF, Face, face_values
from kassen.engine.events import LazyText
from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai import dragons, honor, leaders, orders, retreat, victory
from kassen.rulesets.cc_samurai.board import NBRS, Unit
from kassen.rulesets.cc_samurai.combat import dice_count, explain_roll, score_faces
from kassen.rulesets.cc_samurai.common import LEADER_NAME, as_json
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


def start_combat(s: CCState, kind: str, ah: Hex, dh: Hex, role: str,
                 swarm: list[Hex] | None = None) -> CombatTask:
    """Declare a combat: its task goes on top of the stack (and is returned)."""
    u = s.units[ah]
    tu = s.units.get(dh)
    tl = s.leaders.get(dh) if tu is None else None
    atts = [ah, *(swarm or [])]
    cx: CombatTask = {
        "t": "combat", "seat": u.side, "kind": kind, "role": role, "step": "inspire",
        "att": ah, "att_uid": u.uid, "tgt": dh,
        "atts": atts, "att_uids": [s.units[h].uid for h in atts],
        "tgt_uid": tu.uid if tu else None, "tgt_lid": tl.lid if tl else None, "inspired": [],
    }
    verb = {"attack": "attacks", "bonus": "makes a bonus close combat against", "back": "battles back against",
            "first": "strikes first against"}[role]
    if kind == "ranged":
        verb = "fires at"
    target = s.unit_label(tu) if tu else f"{s.side_name(1 - u.side)} {LEADER_NAME[tl.kind] if tl else 'Leader'}"
    who = f"{s.unit_label(u)} at {s.name(ah)}"
    if swarm:
        who = f"A swarm of {len(atts)} levies from {', '.join(s.name(h) for h in atts)}"
        verb = {"attacks": "attack"}.get(verb, verb)
    s.say("combat", f"{who} {verb} the {target} at {s.name(dh)}",
             kind=kind, role=role, att=s.name(ah), tgt=s.name(dh), atts=[s.name(h) for h in atts])
    if kind == "close" and role in ("attack", "bonus") and tu is not None:
        # First Strike and the Dragon cards of "enemy declares close combat": the defender may
        # answer before the dice, when he holds a card he can play there (R30, R32)
        cx["step"] = "react"
        cx["seat"] = tu.side
    s.stack.append(as_json(cx))
    return cx


def _present_attackers(s: CCState, cx: CombatTask) -> list[Hex]:
    out = []
    for h, uid in zip(cx["atts"], cx["att_uids"]):
        u = s.units.get(h)
        if u is not None and u.uid == uid:
            out.append(h)
    return out


def _first_strike_possible(s: CCState, task: CombatTask) -> bool:
    """Whether First Strike could answer this declaration, whatever the defender holds:
    one attacker the target could battle back against, and a Command card in his hand."""
    return (not task.get("first_strike") and not task.get("no_back") and len(task["atts"]) == 1
            and bool(s.hands[task["seat"]]) and s.t.has_first_strike
            and _can_battle_back(s, task["tgt"], task["att"]))


def _legal_combat(s: CCState, task: CombatTask) -> list[str]:
    step = task["step"]
    if step == "react":
        # First Strike (a Command card) and a Dragon card of this window answer the same
        # declaration independently, in either order (R47); Ambush excludes First Strike
        fs = []
        if (_first_strike_possible(s, task)
                and any(s.t.command_ids[c] == "first-strike" for c in s.hands[task["seat"]])):
            fs = ["first-strike"]
        return [*fs, *dragons.actions(s, task["seat"], "declare", task), "pass"]
    if step in ("prep", "after_att", "after_def", "hollow"):
        window = {"prep": "before-roll", "after_att": "after-roll", "after_def": "after-enemy-roll",
                  "hollow": "enemy-success"}[step]
        return [*dragons.actions(s, task["seat"], window, task), "pass"]
    if step == "inspire":
        return ["inspire", "no-inspire"]
    if step == "flags":
        return retreat._flag_choices(s, task)
    if step == "gain":
        present = _present_attackers(s, task)
        if len(present) > 1:
            return [*(f"advance {s.name(h)}" for h in present), "stay"]
        return ["advance", "stay"]
    if step == "bonus":
        h = task["tgt"]
        return [*(f"bonus {s.name(n)}" for n in sorted(close_targets(s, h))), "no-bonus"]
    if step == "back":
        present = [h for h in _present_attackers(s, task) if _can_battle_back(s, task["tgt"], h)]
        if len(present) > 1:
            return [*(f"battle-back {s.name(h)}" for h in present), "no-battle-back"]
        revenge = [a for a in dragons.actions(s, task["seat"], "before-back", task)]
        return ["battle-back", *revenge, "no-battle-back"]
    return []


def _auto_combat(s: CCState, cx: CombatTask) -> bool:
    step = cx["step"]
    ah = cx["att"]
    if step == "react":
        # the defender is asked when First Strike or a Dragon card of this window could
        # answer, judged on public information only: never on the cards he holds (R32)
        if _first_strike_possible(s, cx) or dragons.window_opens(s, cx["seat"], "declare", cx):
            return False
        _end_react(s, cx)
        return True
    if step == "inspire":
        u = s.units.get(ah)
        if u is None or u.uid != cx["att_uid"]:
            s.stack.pop()
            return True
        if "insp_queue" not in cx:
            cx["insp_queue"] = [
                h for h in _present_attackers(s, cx)
                if cx["kind"] == "close" and leaders.can_inspire(s, h, s.units[h])
            ]
        if cx["insp_queue"] and s.honor[u.side] >= 1:
            return False
        del cx["insp_queue"]
        cx["step"] = "prep"
        return True
    if step == "prep":
        cx["seat"] = s.units[ah].side
        if dragons.window_opens(s, cx["seat"], "before-roll", cx):
            return False
        cx["step"] = "roll"
        return True
    if step == "roll":
        _combat_roll(s, cx)
        return True
    if step == "after_att":
        cx["seat"] = s.units[ah].side if ah in s.units else cx["seat"]
        if dragons.window_opens(s, cx["seat"], "after-roll", cx):
            return False
        cx["step"] = "after_def"
        return True
    if step == "after_def":
        dh = cx["tgt"]
        tu = s.units.get(dh)
        if tu is not None and tu.uid == cx["tgt_uid"] and dragons.window_opens(s, tu.side, "after-enemy-roll", cx):
            cx["seat"] = tu.side
            return False
        cx["step"] = "resolve"
        return True
    if step == "resolve":
        _combat_resolve(s, cx)
        return True
    if step == "flags":
        return retreat._combat_flags_auto(s, cx)
    if step == "post":
        _combat_post(s, cx)
        return True
    return False


def _act_combat(s: CCState, cx: CombatTask, action: str) -> None:
    step = cx["step"]
    if step == "react":
        seat = cx["seat"]
        if action == "first-strike":
            _first_strike(s, cx)  # the window stays open for a Dragon card (R47)
        elif action.startswith("dragon "):
            dragons.play(s, seat, action, cx)
            if s.stack[-1] is not cx:  # Ambush: the defender's strike has begun
                _end_react(s, cx)
        else:
            _end_react(s, cx)
        return
    if step == "hollow":
        if action.startswith("dragon "):
            dragons.play(s, cx["seat"], action, cx)  # Hollow Victory: no gain ground, no bonus
            s.stack[:] = [t for t in s.stack if t is not cx]
        else:
            cx["step"] = "gain"
            cx["seat"] = 1 - cx["seat"]
        return
    if step in ("prep", "after_att", "after_def"):
        if action.startswith("dragon "):
            dragons.play(s, cx["seat"], action, cx)
        cx["step"] = {"prep": "roll", "after_att": "after_def", "after_def": "resolve"}[step]
        if step == "after_att" and cx.get("reroll"):
            _reroll(s, cx)
        return
    if step == "inspire":
        at = cx["insp_queue"].pop(0)
        if action == "inspire":
            u = s.units[at]
            honor.lose_honor(s, u.side, 1, f"a Leader inspires the {s.ut(u).name} at {s.name(at)}")
            cx["inspired"].append(at)
    elif step == "flags":
        retreat._choose_flags(s, cx, action)
    elif step == "gain":
        if action.startswith("advance"):
            if action != "advance":
                cx["att"] = s.b.parse(action.split()[1])
                cx["att_uid"] = s.units[cx["att"]].uid
            _gain_ground(s, cx)
        else:
            s.stack.pop()
    elif step == "bonus":
        s.stack.pop()
        if action != "no-bonus":
            nh = s.b.parse(action.split()[1])
            bonus = start_combat(s, "close", cx["tgt"], nh, "bonus")
            if cx["role"] == "bonus":
                bonus["second_bonus"] = True
    elif step == "back":
        s.stack.pop()
        if action.startswith("dragon "):
            dragons.play(s, cx["seat"], action, cx)
            back = start_combat(s, "close", cx["tgt"], _battle_back_target(s, cx), "back")
            back["dice_override"] = cx.get("dice_n", 0)  # Revenge
        elif action.startswith("battle-back"):
            target = s.b.parse(action.split()[1]) if action != "battle-back" else _battle_back_target(s, cx)
            start_combat(s, "close", cx["tgt"], target, "back")


def _first_strike(s: CCState, cx: CombatTask) -> None:
    """First Strike is played: the card leaves the hand at once; the defending unit battles
    first when the declaration window closes (:meth:`_end_react`), so that a Dragon card may
    still answer the same declaration (R47)."""
    dh = cx["tgt"]
    side = s.units[dh].side
    cid = next(c for c in s.hands[side] if s.t.command_ids[c] == "first-strike")
    s.own_cards()
    s.hands[side].remove(cid)
    s.ti["first_strikes"] = [*s.ti.get("first_strikes", []), {"side": side, "card": cid}]
    card = s.t.command["first-strike"]
    s.say("play", f"{s.side_name(side)} plays {card.name}: {card.text}", side=side, card=cid, slug="first-strike")
    cx["first_strike"] = True


def _end_react(s: CCState, cx: CombatTask) -> None:
    """The defender's answers to a declared close combat are over: the attacker's side
    decides on inspiration next; with First Strike played, the defending unit battles first
    (it then does not battle back; the attacker battles only if still in place)."""
    cx["step"] = "inspire"
    cx["seat"] = 1 - cx["seat"]
    if cx.get("first_strike"):
        strike_first(s, cx, 0)


def strike_first(s: CCState, cx: CombatTask, extra_dice: int) -> None:
    """The defender battles first (First Strike, Ambush); no battle back afterwards."""
    dh, ah = cx["tgt"], cx["att"]
    cx["no_back"] = True
    first = start_combat(s, "close", dh, ah, "first")
    if extra_dice:
        first["extra_dice"] = extra_dice


def _battle_back_target(s: CCState, cx: CombatTask) -> Hex:
    dh = cx["tgt"]
    return next(h for h in _present_attackers(s, cx) if _can_battle_back(s, dh, h))


def combat_dice(s: CCState, kind: str, ah: Hex, dh: Hex, inspired: bool) -> int:
    """Steps 1-3 of both combat procedures: base dice, terrain maxima, then additions."""
    u = s.units[ah]
    ut = s.ut(u)
    moved = s.ti["moved"].get(f"u:{u.uid}", 0) > 0
    bonus = 1 if inspired else 0
    effect = orders.turn_effect(s, u)
    if (effect == "charge" and kind == "close") or effect == "shogun":
        bonus += 1
    bonus += dragons.dice_bonus(s, kind, u.uid, u.type, u.side)
    return dice_count(ut, kind, s.b.distance(ah, dh), moved, u.blocks, s.ter(ah), s.ter(dh), bonus)


def _combat_roll(s: CCState, cx: CombatTask) -> None:
    ah, dh = cx["att"], cx["tgt"]
    u = s.units[ah]
    kind = cx["kind"]
    atts = _present_attackers(s, cx)
    n = sum(combat_dice(s, kind, h, dh, h in cx["inspired"]) for h in atts)
    n += cx.get("extra_dice", 0)
    if "dice_override" in cx:
        n = cx["dice_override"]  # Revenge: as many dice as the attacker rolled
    if "max_dice" in cx:
        n = min(n, cx["max_dice"])  # Practice of Aikido: nothing raises it
    cx["dice_n"] = n
    faces = _roll_for(s, u, kind, n)
    roller = s.unit_label(u) if len(atts) == 1 else f"The swarm of {len(atts)} levies"
    s.say("roll", _faces_text(f"{roller} rolls {n} {'die' if n == 1 else 'dice'}: ", faces),
             faces=face_values(faces), dice=n)
    cx["faces"] = face_values(faces)
    cx["step"] = "after_att"


def _roll_for(s: CCState, u: Unit, kind: str, n: int) -> list[Face]:
    faces = s.roll(n)
    if s.ut(u).bodyguard and kind == "close":
        swords = faces.count(Face.SWORDS)
        extra = s.roll(swords)
        if extra:
            s.say("reroll", f"The bodyguards reroll {swords} sword{'s' if swords > 1 else ''}: "
                     f"{', '.join(f.label for f in extra)}", faces=face_values(extra))
        faces = faces + extra
    return faces


def _reroll(s: CCState, cx: CombatTask) -> None:
    """Spirit of Hachiman: all the dice are rolled again; the second roll stands."""
    u = s.units[cx["att"]]
    faces = _roll_for(s, u, cx["kind"], cx["dice_n"])
    s.say("roll", _faces_text(f"{s.unit_label(u)} rolls again {cx['dice_n']} dice: ", faces),
             faces=face_values(faces), dice=cx["dice_n"])
    cx["faces"] = face_values(faces)


def _combat_resolve(s: CCState, cx: CombatTask) -> None:
    """Score the roll: hits, Honor & Fortune, casualty checks, then flags."""
    ah, dh = cx["att"], cx["tgt"]
    u = s.units[ah]
    ut = s.ut(u)
    side = u.side
    kind = cx["kind"]
    faces = [FACE_OF[f] for f in cx["faces"]]
    tu = s.units.get(dh)
    tl = s.leaders.get(dh)
    cx["step"] = "post"
    if tu is None:
        # Combat Against a Leader Alone in a Hex
        assert tl is not None
        bow_blank = kind == "ranged" and not ut.ranged_sword_hits and not s.t.rules.bow_hits_lone_leader
        if Face.SWORDS in faces and bow_blank:
            s.say("no_sword_hits", f"{ut.name} score no hit with a sword at range: the lone Leader is not hit")
        if Face.SWORDS in faces and not bow_blank:
            victory.remove_leader(s, dh, "killed", side)
        else:
            s.say("leader_survives", f"The lone {LEADER_NAME[tl.kind]} at {s.name(dh)} is not hit and must retreat or commit seppuku")
            leaders._push_leader_retreat(s, dh)
        return
    tt = s.ut(tu)
    sc = score_faces(faces, ut, tt, kind, len(cx["inspired"]))
    s.say("score", _score_text(s.unit_label(u) if len(cx.get("atts", [])) <= 1 else "The attack",
                                  faces, ut, tt, kind, len(cx["inspired"])))
    if sc.swords_ignored:
        s.say("ignore_swords", f"{tt.name} ignores {sc.swords_ignored} sword{'s' if sc.swords_ignored > 1 else ''} "
                 "(superior rank/stature)")
    hits, honors = sc.hits, sc.honor
    if honors and dragons.has_effect(s, "head-collector", side, u.uid):
        honors *= 2
    if honors:
        honor.gain_honor(s, side, honors, "Honor & Fortune rolled in combat")
    flags = sc.flags * (2 if cx.get("double_flags") else 1)
    cx["flags"] = flags
    ld = leaders.attached_leader(s, dh)
    if kind == "ranged" and orders.turn_effect(s, u) == "hold":
        # remembered so that Shot Proof Armor after the second shot can cancel both (R34)
        shots = dict(s.ti.get("hold_shots", {}))
        shots[f"{u.uid}>{tu.uid}"] = shots.get(f"{u.uid}>{tu.uid}", 0) + min(hits, tu.blocks)
        s.ti["hold_shots"] = shots
    eliminated = victory.hit_unit(s, dh, hits, side, f"{hits} hit{'s' if hits != 1 else ''}") if hits else False
    if s._result is not None:
        return
    if hits and ld is not None:
        leaders._casualty_check(s, dh, ld, kind, eliminated, side)
        # finished(), not ``s._result``: mypy keeps the attribute narrowed to None past the
        # call (above), and the compiled build would trust that
        if s.finished():
            return
    if eliminated:
        if dh in s.leaders:
            leaders._push_leader_retreat(s, dh)
        return
    if dh in s.units and flags:
        cx["step"] = "flags"


def _combat_post(s: CCState, cx: CombatTask) -> None:
    """After hits, checks and retreats: gain ground and bonus combat, or battle back."""
    dh = cx["tgt"]
    present = _present_attackers(s, cx)
    if not present or cx["kind"] != "close" or cx["role"] in ("back", "first"):
        s.stack.pop()
        return
    ah = present[0]
    att = s.units[ah]
    if dh not in s.units and dh not in s.leaders:
        if s.ter(dh).impassable or (ah in s.leaders and s.b.is_half(dh)):
            s.stack.pop()
            return
        cx["step"] = "hollow" if dragons.window_opens(s, 1 - att.side, "enemy-success", cx) else "gain"
        cx["seat"] = 1 - att.side if cx["step"] == "hollow" else att.side
        return
    tu = s.units.get(dh)
    if cx.get("no_back"):
        s.say("no_battle_back", "No battle back: the defender already struck first")
        s.stack.pop()
        return
    if tu is not None and tu.uid == cx["tgt_uid"] and any(_can_battle_back(s, dh, h) for h in present):
        cx["step"] = "back"
        cx["seat"] = tu.side
        return
    s.stack.pop()


def _can_battle_back(s: CCState, dh: Hex, ah: Hex) -> bool:
    tu = s.units[dh]
    cav = s.ut(tu).cavalry
    if s.ter(dh).cap_on("close", cav) == 0 or s.ter(ah).cap_into("close", cav) == 0:
        return False
    return combat_dice(s, "close", dh, ah, False) > 0


def _gain_ground(s: CCState, cx: CombatTask) -> None:
    ah, dh = cx["att"], cx["tgt"]
    s.own_pieces()
    u = s.units.pop(ah)
    s.units[dh] = u
    ld = s.leaders.get(ah)
    if ld is not None and ld.side == u.side:
        del s.leaders[ah]
        s.leaders[dh] = ld
    s.say("gain_ground", f"{s.unit_label(u)} gains ground from {s.name(ah)} to {s.name(dh)}",
             frm=s.name(ah), to=s.name(dh))
    ut = s.ut(u)
    qualified = ut.cavalry or dh in s.leaders
    legendary = dragons.has_effect(s, "legendary-combat", u.side, u.uid)
    if cx["role"] == "attack":
        may = qualified or legendary
    else:  # Legendary Combat: a unit that already qualified may make a second bonus close combat
        may = cx["role"] == "bonus" and legendary and qualified and not cx.get("second_bonus")
    eligible = may and not s.ter(dh).forbids_battle_on_entry(ut.cavalry) and bool(close_targets(s, dh))
    if eligible:
        cx["step"] = "bonus"
    else:
        s.stack.pop()


def close_targets(s: CCState, h: Hex) -> list[Hex]:
    units, leaders = s.units, s.leaders
    u = units[h]
    ut = s.ut(u)
    cavalry = ut.cavalry
    if s.ter(h).cap_on("close", cavalry) == 0 or orders.turn_effect(s, u) == "hold":
        return []
    side = u.side
    out = []
    for n in NBRS[h]:
        e = units.get(n) or leaders.get(n)
        if e is not None and e.side != side and s.ter(n).cap_into("close", cavalry) != 0:
            out.append(n)
    return out
