"""Dragon cards: when each may be played, on what, and what it does.

The card texts are ``data/dragon_cards.toml`` (the product's reconstruction,
``shared/rules/dragon-cards.md``). This module gives each implemented card its
*window* (the moment it may be played), its *target* and its effect. Whether a window
opens (whether the player becomes the seat to move) depends on public information only:
he holds a Dragon card (the count is public), may still play one, and some card of the
window — whatever he holds — could be paid for and applies to the situation
(:func:`window_opens`, R32). So the question itself reveals nothing of his hand; his
legal actions there are the cards he really holds, and ``pass``. Playing:
``dragon <slug>`` or ``dragon <slug> <hex>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kassen.engine.dice import FACE_OF, Face
from kassen.engine.events import plural
from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai import cards, honor, orders, victory
from kassen.rulesets.cc_samurai.combat import score_faces
from kassen.rulesets.cc_samurai.common import as_json
from kassen.rulesets.cc_samurai.tasks import (
    CombatTask,
    DragonLackOfHonorTask,
    DragonTask,
    TurncoatTask,
)

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState

JSON = dict[str, Any]
#: the task a Dragon card answers: a combat, or a window of its own (Insult's carries the move)
WindowTask = CombatTask | DragonTask

#: window names used by the engine -> the cards' "Window" column
WINDOWS = {
    "with-command": "with Command",
    "after-enemy-command": "after enemy Command",
    "movement": "your movement",
    "declare": "enemy declares close combat",
    "before-roll": "before you roll",
    "after-roll": "after you roll",
    "after-enemy-roll": "after enemy rolls",
    "before-back": "before battle back",
    "end": "end of your turn",
    "insult": "when the enemy moves an ordered Leader",
    "enemy-success": "after an enemy's successful close combat",
}

#: slug -> (window, target kind). Target kinds: none | own-unit | enemy-unit | enemy-leader |
#: own-damaged-unit | defender | attacker-single-block | attacker-with-leader | defender-with-leader | mover
CARDS: dict[str, tuple[str, str]] = {
    "ashigaru-attack": ("with-command", "none"),
    "fire-arrows": ("with-command", "none"),
    "fire-in-the-rain": ("with-command", "none"),
    "panic": ("with-command", "none"),
    "move-as-the-wind": ("with-command", "none"),
    "white-dragon": ("with-command", "none"),
    "tea-ceremony": ("with-command", "none"),
    "rice-famine": ("with-command", "none"),
    "ninja-assassin": ("with-command", "enemy-leader"),
    "physician": ("with-command", "own-damaged-unit"),
    "blue-dragon": ("with-command", "none"),
    "red-dragon": ("with-command", "none"),
    "followers-of-bishamon": ("after-enemy-command", "none"),
    "white-fox-spirit": ("after-enemy-command", "none"),
    "forced-march": ("movement", "mover"),
    "bravery": ("declare", "none"),
    "practice-of-aikido": ("declare", "none"),
    "cowardice": ("before-roll", "enemy-unit"),
    "desperate-charge": ("before-roll", "attacker-single-block"),
    "strike-fear": ("before-roll", "none"),
    "head-collector": ("before-roll", "attacker-with-leader"),
    "spirit-of-hachiman": ("after-roll", "none"),
    "brave-leader": ("after-enemy-roll", "defender-with-leader"),
    "shot-proof-armor": ("after-enemy-roll", "none"),
    "revenge": ("before-back", "none"),
    "wise-advisor": ("end", "none"),
    "ambush": ("declare", "none"),
    "hollow-victory": ("enemy-success", "none"),
    "legendary-combat": ("after-roll", "none"),
    "spirit-of-the-wind": ("movement", "mover"),
    "brave-messenger": ("with-command", "none"),
    "tactical-decision": ("with-command", "tactical"),
    "insult": ("insult", "none"),
    "ninja-thief": ("with-command", "none"),
    "personal-challenge": ("challenge", "none"),
    "turncoat": ("with-command", "leaderless-enemy-unit"),
    "wild-winds": ("after-enemy-command", "none"),
}

#: cards asked in more than one window
EXTRA_WINDOWS = {"personal-challenge": ("declare", "before-roll")}

BOWS = ("SB", "AB", "SBC")

#: window -> the cards that may be played at it (its own window or one of EXTRA_WINDOWS)
_AT_WINDOW: dict[str, frozenset[str]] = {
    w: frozenset(slug for slug, (own, _) in CARDS.items() if own == w or w in EXTRA_WINDOWS.get(slug, ()))
    for w in {own for own, _ in CARDS.values()} | {w for ws in EXTRA_WINDOWS.values() for w in ws}
}


def implemented(slug: str) -> bool:
    return slug in CARDS


def can_be_asked(s: CCState, seat: int) -> bool:
    """A window question goes to ``seat`` when he holds a Dragon card and has not played one
    (or still holds the card Ninja Thief let him take, which he may play beyond the limit)."""
    if not s.dragons[seat]:
        return False
    thief = s.ti.get("thief")
    return not s.ti["dragon_played"][seat] or bool(thief and thief[0] == seat and thief[1] in s.dragons[seat])


def window_opens(s: CCState, seat: int, window: str, cx: WindowTask | None = None) -> bool:
    """Whether ``seat`` is asked at ``window``: on public information only (R32).

    He holds a Dragon card and may still play one (:func:`can_be_asked`: counts and flags
    everybody sees), and some card of this window, whichever he holds, costs no more than
    his Honor & Fortune and has a target in this situation. Two states that differ only in
    the hidden cards open the same windows.
    """
    if not can_be_asked(s, seat):
        return False
    table, honor = s.t.dragon, s.honor[seat]
    for slug in _AT_WINDOW.get(window, ()):
        if slug in table and table[slug].cost <= honor and _targets(s, seat, slug, CARDS[slug][1], cx):
            return True
    return False


def actions(s: CCState, seat: int, window: str, cx: WindowTask | None = None) -> list[str]:
    """The ``dragon ...`` actions ``seat`` may take at ``window`` (without ``pass``)."""
    if not can_be_asked(s, seat):
        return []
    out: set[str] = set()
    ti = s.ti
    thief = ti.get("thief")
    played = ti["dragon_played"][seat]
    here = _AT_WINDOW.get(window, ())
    ids, table, honor = s.t.dragon_ids, s.t.dragon, s.honor[seat]
    for did in s.dragons[seat]:
        slug = ids[did]
        if slug not in here:
            continue  # not a card of this window (nor an unimplemented one)
        if played and not (thief and thief == [seat, did]):
            continue  # after his one card, only a card taken by Ninja Thief may still be played
        if table[slug].cost > honor:
            continue
        for target in _targets(s, seat, slug, CARDS[slug][1], cx):
            out.add(f"dragon {slug}" + (f" {target}" if target else ""))
    return sorted(out)


def _targets(s: CCState, seat: int, slug: str, kind: str, cx: WindowTask | None) -> list[str]:
    if not _condition(s, seat, slug, cx):
        return []
    if kind == "none":
        return [""]
    if kind == "enemy-leader":
        return [s.name(h) for h, ld in s.leaders.items() if ld.side != seat]
    if kind == "own-damaged-unit":
        return [s.name(h) for h, u in s.units.items()
                if u.side == seat and u.blocks < s.start_blocks[u.uid] and not s.ut(u).bodyguard]
    if kind == "enemy-unit":
        return [s.name(h) for h, u in s.units.items() if u.side != seat]
    if kind == "leaderless-enemy-unit":
        return [s.name(h) for h, u in s.units.items() if u.side != seat and h not in s.leaders and not s.ut(u).bodyguard]
    if kind == "tactical":
        spec = s.ti["spec"]
        if spec.get("mode") != "slots" or not all("section" in sl for sl in spec["slots"]):
            return []
        own = {sl["section"] for sl in spec["slots"]}
        # "move your Section card's order to another section"
        return ["extra", *(sec for sec in ("left", "center", "right") if own != {sec})]
    if kind == "mover":
        return [s.name(h) for key in s.ti["orders"] if key[0] == "u" and key not in s.ti["moved"]
                and (h := orders.key_hex(s, key)) is not None and s.move_limits(s.units[h])[0] > 0]
    assert cx is not None and cx["t"] == "combat"
    ah = cx["att"]
    dh = cx["tgt"]
    if kind == "attacker-single-block":
        return [""] if ah in s.units and s.units[ah].blocks == 1 else []
    if kind == "attacker-with-leader":
        return [""] if ah in s.leaders and f"u:{s.units[ah].uid}" in s.ti["orders"] else []
    if kind == "defender-with-leader":
        return [""] if dh in s.units and dh in s.leaders else []
    return []


def _condition(s: CCState, seat: int, slug: str, cx: WindowTask | None) -> bool:
    """Card-specific conditions beyond the window and the cost."""
    if cx is not None and cx["t"] == "combat":  # the combat's own cards
        kind = cx["kind"]
        if slug in ("spirit-of-hachiman", "strike-fear", "desperate-charge", "head-collector", "bravery",
                    "practice-of-aikido", "brave-leader", "revenge", "legendary-combat", "personal-challenge",
                    "ambush") and kind != "close":
            return False
        if slug == "shot-proof-armor" and kind != "ranged":
            return False
        if slug == "brave-leader":  # ignores the roll's flags: nothing to do without one
            return cx.get("tgt_uid") is not None and _roll_counts(s, cx)[1] > 0
        if slug == "shot-proof-armor":  # even after a roll that scored nothing: Hold and Shoot's
            return cx.get("tgt_uid") is not None  # second shot cancels the first one's too (R34)
        if slug == "ambush":  # "cannot be combined with, or answer, First Strike"
            return (not cx.get("first_strike") and cx.get("role") != "first" and len(cx["atts"]) == 1
                    and s._can_battle_back(cx["tgt"], cx["att"]))
        if slug == "legendary-combat":  # only a roll that scored can make the combat successful
            return cx["role"] in ("attack", "bonus") and _roll_counts(s, cx) != (0, 0)
        if slug == "personal-challenge":
            ah, dh = cx["att"], cx["tgt"]
            return ah in s.units and dh in s.units and ah in s.leaders and dh in s.leaders
    if slug == "personal-challenge" and (cx is None or cx["t"] != "combat"):
        return False
    if slug == "insult":
        return cx is not None and cx["t"] == "dragon" and s.find_leader(cx["lid"]) == cx["to"]
    if slug == "brave-messenger":
        spec = s.ti["spec"]
        return spec.get("mode") == "slots" and bool(spec["slots"]) and all("section" in sl for sl in spec["slots"])
    if slug == "ninja-thief":
        return bool(s.dragons[1 - seat])
    if slug == "wild-winds":
        return s.ti.get("card") is not None
    if slug == "blue-dragon":
        return bool(_blue_dragon_targets(s, 1 - seat))
    if slug == "white-fox-spirit":
        return s.ti["spec"].get("mode") is not None
    if slug == "wise-advisor":
        return bool(s.cmd_discard)
    return True


def _roll_counts(s: CCState, cx: CombatTask) -> tuple[int, int]:
    """The hits and flags the roll in ``cx`` scores against its target (a sword against a
    lone Leader counts as a hit); ``(0, 0)`` before the roll or when nothing is there."""
    faces = [FACE_OF[f] for f in cx.get("faces", ())]
    ah, dh = cx["att"], cx["tgt"]
    u, tu = s.units.get(ah), s.units.get(dh)
    if u is None or not faces:
        return (0, 0)
    if tu is None:
        return (faces.count(Face.SWORDS), 0) if dh in s.leaders else (0, 0)
    sc = score_faces(faces, s.ut(u), s.ut(tu), cx["kind"], len(cx["inspired"]))
    return (sc.hits, sc.flags)


def _blue_dragon_targets(s: CCState, enemy: int) -> list[Hex]:
    wet = {h for h, t in s.terrain.items() if t in ("river", "ford")}
    return sorted(h for h, u in s.units.items()
                  if u.side == enemy and (h in wet or any(n in wet for n in s.b.neighbours(h))))


def play(s: CCState, seat: int, action: str, cx: WindowTask | None = None) -> None:
    """Pay for and resolve ``dragon <slug> [hex]``."""
    parts = action.split()
    slug = parts[1]
    option = parts[2] if len(parts) > 2 and slug == "tactical-decision" else None
    target = s.b.parse(parts[2]) if len(parts) > 2 and option is None else None
    card = s.t.dragon[slug]
    did = next(d for d in s.dragons[seat] if s.t.dragon_ids[d] == slug)
    s.own_cards()
    s.own_score()
    s.dragons[seat].remove(did)
    s.honor[seat] -= card.cost
    s.dragon_tokens += card.cost
    # the turn info's lists are replaced, not changed in place: clones share them (CCState.clone)
    ti = s.ti
    ti["dragons_in_play"] = [*ti["dragons_in_play"], did]
    thief = ti.get("thief")
    if thief and thief == [seat, did]:
        ti["thief"] = None  # the stolen card, beyond the one-card limit
    played = list(ti["dragon_played"])
    played[seat] = True
    ti["dragon_played"] = played
    on = f" on {s.name(target)}" if target is not None else (f": {option}" if option else "")
    s.say("dragon", f"{s.side_name(seat)} plays the Dragon card {card.name} ({card.cost} Honor & Fortune){on}: "
          f"{card.effect}", side=seat, card=did, slug=slug, target=s.name(target) if target is not None else None)
    if option is not None:
        _tactical_decision(s, option)
        return
    _resolve(s, seat, slug, target, cx)


def _effect(s: CCState, seat: int, slug: str, **data: Any) -> None:
    s.ti["effects"] = [*s.ti["effects"], {"slug": slug, "side": seat, **data}]


def _resolve(s: CCState, seat: int, slug: str, target: Hex | None, cx: WindowTask | None) -> None:
    s.own_cards()  # a card's effect may draw, steal or discard and raise the command
    s.own_score()
    enemy = 1 - seat
    if slug in ("ashigaru-attack", "fire-arrows", "fire-in-the-rain", "panic", "move-as-the-wind",
                "followers-of-bishamon"):
        _effect(s, seat, slug)
    elif slug == "white-dragon":
        s.command[seat] += 1
        cid = cards.draw_command(s, seat)
        if cid is not None:
            s.hands[seat].append(cid)
            s.say_private(seat, "draw", f"{s.side_name(seat)} draws {s.card_name(cid)}",
                          f"{s.side_name(seat)} draws a Command card", side=seat, card=cid)
        s.say("command", f"{s.side_name(seat)}'s command rises to {s.command[seat]}")
    elif slug == "tea-ceremony":
        faces = s.roll(len(s.hands[seat]))
        s.say("roll", f"Tea Ceremony: {len(faces)} dice: {', '.join(f.label for f in faces)}",
              faces=[f.value for f in faces], dice=len(faces))
        honor.gain_honor(s, seat, sum(1 for f in faces if f.is_unit_symbol), "Tea Ceremony")
    elif slug == "rice-famine":
        faces = s.roll(len(s.hands[enemy]))
        s.say("roll", f"Rice Famine: {len(faces)} dice: {', '.join(f.label for f in faces)}",
              faces=[f.value for f in faces], dice=len(faces))
        short = honor.lose_honor(s, enemy, sum(1 for f in faces if f.is_unit_symbol), "Rice Famine")
        if short:
            push_dragon_loh(s, enemy, honor.loh_dice(s, short), "Lack of Honor from a Dragon card")
    elif slug == "ninja-assassin":
        assert target is not None
        faces = s.roll(1)
        s.say("roll", f"Ninja Assassin: {faces[0].label}", faces=[faces[0].value], dice=1)
        if faces[0] == Face.SWORDS:
            victory.remove_leader(s, target, "killed", seat)
    elif slug == "physician":
        assert target is not None
        u = s.units[target]
        s.own_pieces()
        s.units[target] = u._replace(blocks=u.blocks + 1)
        s.ti["no_order"] = [*s.ti["no_order"], u.uid]
        _effect(s, seat, slug, uid=u.uid)
        s.say("blocks", f"{s.unit_label(u)} at {s.name(target)} gets back a block ({u.blocks + 1}) and may not be "
              "ordered this turn", hex=s.name(target))
    elif slug == "blue-dragon":
        for h in _blue_dragon_targets(s, enemy):
            bu = s.units.get(h)
            if bu is None:
                continue
            face = s.roll(1)[0]
            s.say("roll", f"Blue Dragon against the {s.unit_label(bu)} at {s.name(h)}: {face.label}",
                  faces=[face.value], dice=1)
            if face.value == s.ut(bu).symbol:
                victory.hit_unit(s, h, 1, seat, "Blue Dragon")
                if s._result is not None:
                    return
    elif slug == "red-dragon":
        faces = s.roll(4)
        s.say("roll", f"Red Dragon: 4 dice: {', '.join(f.label for f in faces)}", faces=[f.value for f in faces], dice=4)
        symbols = [f.value for f in faces if f.is_unit_symbol]
        if symbols:
            s.stack.append(as_json({"t": "dloh", "seat": enemy, "faces": symbols, "by": seat, "why": "Red Dragon"}))
    elif slug == "white-fox-spirit":
        s.ti["spec"] = {**s.ti["spec"], "max": 1}
        s.say("white_fox", f"{s.side_name(enemy)} may order only 1 unit or Leader this turn")
    elif slug == "forced-march":
        assert target is not None
        _effect(s, seat, slug, uid=s.units[target].uid)
    elif slug == "bravery" or slug == "brave-leader":
        assert cx is not None and cx["t"] == "combat"
        cx["ignore_all"] = True
    elif slug == "practice-of-aikido":
        assert cx is not None and cx["t"] == "combat"
        cx["max_dice"] = 2
    elif slug == "cowardice":
        assert target is not None
        _effect(s, seat, slug, uid=s.units[target].uid)
    elif slug == "desperate-charge":
        assert cx is not None and cx["t"] == "combat"
        cx["extra_dice"] = cx.get("extra_dice", 0) + 1
    elif slug == "strike-fear":
        assert cx is not None and cx["t"] == "combat"
        cx["double_flags"] = True
    elif slug == "head-collector":
        assert cx is not None and cx["t"] == "combat"
        _effect(s, seat, slug, uid=s.units[cx["att"]].uid)
    elif slug == "spirit-of-hachiman":
        assert cx is not None and cx["t"] == "combat"
        cx["reroll"] = True
    elif slug == "shot-proof-armor":
        assert cx is not None and cx["t"] == "combat"
        cx["faces"] = []
        s.say("shot_proof", "Shot Proof Armor: every die of the attack is ignored")
        # against Hold and Shoot, played after the second shot, it cancels the first one too
        first = s.ti.get("hold_shots", {}).get(f"{cx['att_uid']}>{cx['tgt_uid']}", 0)
        dh = cx["tgt"]
        tu = s.units.get(dh)
        if first and tu is not None and tu.uid == cx["tgt_uid"]:
            back = min(first, s.start_blocks[tu.uid] - tu.blocks)
            s.own_pieces()
            s.units[dh] = tu._replace(blocks=tu.blocks + back)
            _effect(s, seat, "shot-proof-restore", uid=tu.uid, blocks=back)
            s.say("shot_proof", f"Shot Proof Armor cancels the first Hold and Shoot fire too: the {s.unit_label(tu)} "
                  f"gets back {plural(back, 'block')}", hex=s.name(dh))
    elif slug == "revenge":
        assert cx is not None and cx["t"] == "combat"
        cx["revenge"] = True
    elif slug == "wise-advisor":
        pass  # the card is chosen next ("take <slug>")
    elif slug == "ambush":
        assert cx is not None and cx["t"] == "combat"
        s.strike_first(cx, 1)
    elif slug == "hollow-victory":
        short = honor.lose_honor(s, enemy, 2, "Hollow Victory")
        if short:
            push_dragon_loh(s, enemy, honor.loh_dice(s, short), "Lack of Honor from a Dragon card")
    elif slug == "legendary-combat":
        assert cx is not None and cx["t"] == "combat"
        _effect(s, seat, slug, uid=cx["att_uid"])
    elif slug == "spirit-of-the-wind":
        assert target is not None
        _effect(s, seat, slug, uid=s.units[target].uid)
    elif slug == "brave-messenger":
        spec = s.ti["spec"]
        sections = sorted({sl["section"] for sl in spec["slots"]})
        s.ti["spec"] = {**spec, "slots": [*spec["slots"], *({"section": sec} for sec in sections)]}
        s.say("brave_messenger", f"One more order in the {', '.join(sections)} section{'s' if len(sections) != 1 else ''}")
    elif slug == "insult":
        assert cx is not None and cx["t"] == "dragon"
        _insult(s, cx)
    elif slug == "ninja-thief":
        did = s.dragons[enemy].pop(s.own_rng().randbelow(len(s.dragons[enemy])))
        s.dragons[seat].append(did)
        s.ti["thief"] = [seat, did]
        s.say_private(seat, "ninja_thief", f"{s.side_name(seat)} steals the Dragon card {s.dragon_name(did)}",
                      f"{s.side_name(seat)} steals a Dragon card from {s.side_name(enemy)}", side=seat, card=did)
        s.say_private(enemy, "ninja_thief", f"{s.side_name(enemy)} loses the Dragon card {s.dragon_name(did)}",
                      f"{s.side_name(seat)} steals a Dragon card from {s.side_name(enemy)}", side=enemy, card=did)
    elif slug == "personal-challenge":
        assert cx is not None and cx["t"] == "combat"
        _personal_challenge(s, seat, cx)
    elif slug == "turncoat":
        assert target is not None
        _turncoat(s, seat, target)
    elif slug == "wild-winds":
        _wild_winds(s, enemy)
    else:  # pragma: no cover - every key of CARDS is handled above
        raise AssertionError(slug)


def has_effect(s: CCState, slug: str, side: int | None = None, uid: str | None = None) -> bool:
    for e in s.ti["effects"]:
        if e["slug"] == slug and (side is None or e["side"] == side) and (uid is None or e.get("uid") == uid):
            return True
    return False


def dice_bonus(s: CCState, kind: str, uid: str, unit_type: str, side: int) -> int:
    """Extra dice from Dragon cards in play for the active player's ordered unit ``uid``."""
    if side != s.active or f"u:{uid}" not in s.ti["orders"]:
        return 0
    n = 0
    if kind == "close" and unit_type == "ASp" and has_effect(s, "ashigaru-attack", side):
        n += 1
    if kind == "ranged" and unit_type in BOWS and has_effect(s, "fire-arrows", side):
        n += 1
    if kind == "ranged" and unit_type == "AA" and has_effect(s, "fire-in-the-rain", side):
        n += 1
    return n


def flag_rule(s: CCState, cx: CombatTask, side: int, uid: str) -> str | None:
    """How Dragon cards bend Bolster Morale for the defender ``uid``: 'all', 'none' or None.

    Cowardice forbids every ignore, even through a Dragon card; otherwise of the cards that
    contradict (Panic against Bravery, Brave Leader, Followers of Bishamon) the one played
    second wins.
    """
    if has_effect(s, "cowardice", 1 - side, uid):
        return "none"
    rule: str | None = None
    for e in s.ti["effects"]:
        if e["slug"] == "panic" and e["side"] != side:
            rule = "none"
        elif e["slug"] == "followers-of-bishamon" and e["side"] == side:
            rule = "all"
    if cx.get("ignore_all"):
        rule = "all"
    return rule


def push_dragon_loh(s: CCState, side: int, dice: int, why: str) -> None:
    """Lack of Honor from Dragon Card Play: each unit symbol costs a block of a unit of the owner's choice."""
    faces = s.roll(dice)
    s.say("lack_of_honor", f"{why}: {s.side_name(side)} {honor.loh_roller_text(s, side, dice)}: "
          f"{', '.join(f.label for f in faces)}",
          side=side, faces=[f.value for f in faces])
    symbols = [f.value for f in faces if f.is_unit_symbol]
    if symbols:
        s.stack.append(as_json({"t": "dloh", "seat": side, "faces": symbols, "by": 1 - side, "why": why}))


def dloh_candidates(s: CCState, task: DragonLackOfHonorTask) -> list[Hex]:
    symbol = task["faces"][0]
    return sorted(h for h, u in s.units.items() if u.side == task["seat"] and s.ut(u).symbol == symbol)


def _tactical_decision(s: CCState, option: str) -> None:
    """Tactical Decision: one extra unit of your choice anywhere, or the Section card's orders moved."""
    spec = s.ti["spec"]
    if option == "extra":
        s.ti["spec"] = {**spec, "slots": [*spec["slots"], {"any": True}]}
        s.say("tactical_decision", "One extra order, to a unit or Leader anywhere")
    else:
        s.ti["spec"] = {**spec, "slots": [{"section": option} for _ in spec["slots"]]}
        s.say("tactical_decision", f"The card's {plural(len(spec['slots']), 'order')} go to the {option} section")


def _insult(s: CCState, task: DragonTask) -> None:
    """Insult: the Leader goes back to the hex he came from, with the unit he moved with."""
    frm, to = task["frm"], task["to"]
    s.own_pieces()
    ld = s.leaders.pop(to)
    s.leaders[frm] = ld
    if task.get("uid") and to in s.units and s.units[to].uid == task["uid"]:
        u = s.units.pop(to)
        s.units[frm] = u
        s.ti["no_battle"] = [*s.ti["no_battle"], u.uid]
    s.say("insult", f"Insulted, the {s.side_name(ld.side)} Leader goes back from {s.name(to)} to {s.name(frm)}"
          + (" with his unit, which may not battle this turn" if task.get("uid") else ""))


LEADER_RANK = {"foot": 1, "mounted": 2, "commander": 3}


def _personal_challenge(s: CCState, seat: int, cx: CombatTask) -> None:
    s.own_command_cards()  # the loser discards a card at random
    ah, dh = cx["att"], cx["tgt"]
    leaders = {s.leaders[ah].side: ah, s.leaders[dh].side: dh}
    dice = {}
    for side in (0, 1):
        n = len(s.hands[side]) + (1 if side == s.active and s.ti.get("card") else 0)
        n += 2 if side == seat else 0
        n += 1 if s.honor[side] > s.honor[1 - side] else 0
        rank = LEADER_RANK[s.leaders[leaders[side]].kind]
        other = LEADER_RANK[s.leaders[leaders[1 - side]].kind]
        n += 1 if rank > other else 0
        dice[side] = n
    swords = {}
    for side in (0, 1):
        faces = s.roll(dice[side])
        s.say("roll", f"Personal Challenge: {s.side_name(side)} rolls {dice[side]} dice: "
              f"{', '.join(f.label for f in faces)}", faces=[f.value for f in faces], dice=dice[side])
        swords[side] = faces.count(Face.SWORDS)
        honors = faces.count(Face.HONOR)
        if honors:
            honor.gain_honor(s, side, honors, "Personal Challenge")
    if swords[0] == swords[1]:
        s.say("challenge", "The challenge ends in a tie: both Leaders live")
        return
    loser = 0 if swords[0] < swords[1] else 1
    h = leaders[loser]
    victory.remove_leader(s, h, "challenge", None)
    s.say("challenge", f"The {s.side_name(loser)} Leader at {s.name(h)} falls in the challenge (no Victory Banner)")
    if s.hands[loser]:
        cid = s.hands[loser].pop(s.own_rng().randbelow(len(s.hands[loser])))
        s.cmd_discard.append(cid)
        s.say("discard", f"{s.side_name(loser)} discards {s.card_name(cid)} at random", side=loser, card=cid, random=True)


def _turncoat(s: CCState, seat: int, target: Hex) -> None:
    """Turncoat: both sides roll; the side with more Honor & Fortune symbols decides."""
    enemy = 1 - seat
    dice = {}
    for side in (0, 1):
        n = 3
        n += 1 if s.banners[side] > s.banners[1 - side] else 0
        n += 2 if s.honor[side] > s.honor[1 - side] else 0
        dice[side] = n
    honors = {}
    for side in (0, 1):
        faces = s.roll(dice[side])
        s.say("roll", f"Turncoat: {s.side_name(side)} rolls {dice[side]} dice: {', '.join(f.label for f in faces)}",
              faces=[f.value for f in faces], dice=dice[side])
        honors[side] = faces.count(Face.HONOR)
    if honors[0] == honors[1]:
        s.say("turncoat", "A tie: the unit stays loyal")
        return
    decider = 0 if honors[0] > honors[1] else 1
    s.stack.append(as_json({"t": "turncoat", "seat": decider, "hex": target, "uid": s.units[target].uid,
                            "player": seat, "owner": enemy}))


def turncoat_decided(s: CCState, task: TurncoatTask, defect: bool) -> None:
    h = task["hex"]
    u = s.units.get(h)
    if u is None or u.uid != task["uid"]:
        return
    if not defect:
        s.say("turncoat", f"The {s.unit_label(u)} at {s.name(h)} stays loyal")
        return
    s.own_pieces()
    s.units[h] = u._replace(side=task["player"])
    s.ti["no_order"] = [*s.ti["no_order"], u.uid]
    s.say("turncoat", f"The unit at {s.name(h)} changes sides and now fights for {s.side_name(task['player'])}",
          hex=s.name(h))


def _wild_winds(s: CCState, victim: int) -> None:
    """Wild Winds: the played card goes back to the hand; a random card of the hand is played instead."""
    s.own_command_cards()
    cid = s.ti["card"]
    s.hands[victim].append(cid)
    s.ti["card"] = None
    new = s.hands[victim][s.own_rng().randbelow(len(s.hands[victim]))]
    s.say("wild_winds", f"{s.side_name(victim)}'s card goes back to the hand; a card drawn from it at random "
          "must be played instead", random=True)
    s._set_card(victim, new)
