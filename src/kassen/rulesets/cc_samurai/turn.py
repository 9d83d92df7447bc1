"""The turn: start of turn, Phase 1 (playing a Command card), Phase 5 (end of turn: Wise
Advisor, drawing, Dragon cards or Honor & Fortune), the decks and their reshuffles.

Rules functions of the state (``s: CCState``, state.py); the data they read: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kassen.engine.events import LazyText
from kassen.engine.protocol import Result
from kassen.rulesets.cc_samurai import cards, dragons, honor, orders, victory
from kassen.rulesets.cc_samurai.common import (
    _mirror,
    _new_turn_info,
    as_json,
    card_text,
    dragon_text,
)
from kassen.rulesets.cc_samurai.tasks import EndTask, PickTask, PlayTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.data import CommandCard
    from kassen.rulesets.cc_samurai.state import CCState


def _play_text(who: str, card: CommandCard) -> LazyText:
    """``<side> plays <card>: <its text>``, written only when read."""
    return lambda: f"{who} plays {card.name}: {card.text}"


def begin_game(s: CCState) -> None:
    _start_turn(s, first=True)
    s.advance()
    s.events = tuple(s._ev)
    s._ev = []


def _start_turn(s: CCState, first: bool = False) -> None:
    if not first:
        s.active = 1 - s.active
        s.turn += 1
    s.ti = _new_turn_info()
    s.say("turn", f"Turn {s.turn}: {s.side_name(s.active)} to play", turn=s.turn, side=s.active)
    # Enemy Command Tent: a unit in the enemy tent hex at the start of a turn captures it.
    for owner, th in sorted(s.tents.items()):
        u = s.units.get(th)
        if u is not None and u.side != owner:
            victory._drop_tent(s, owner, th)
            s.say("tent", f"{s.side_name(u.side)} captures the {s.side_name(owner)} command tent at {s.name(th)}",
                     hex=s.name(th))
            cards._lose_random_card(s, owner, "the command tent was taken")
            victory.award_banner(s, u.side, s.tent_banners, "enemy command tent taken", objective=True)
            if s._result is not None:
                return
    victory._check_objectives(s)
    if s._result is not None:
        return
    # End Game & Victory: a player starting his turn with a single Command card surrenders.
    if len(s.hands[s.active]) <= 1:
        winner = 1 - s.active
        s.say("surrender", f"{s.side_name(s.active)} starts the turn with a single Command card and surrenders",
                 side=s.active)
        s._result = Result(winner, "surrender", (1.0, 0.0) if winner == 0 else (0.0, 1.0))
        return
    s.stack = [as_json({"t": "play", "seat": s.active})]




def _legal_play(st: CCState, task: PlayTask) -> list[str]:
    slugs: set[str] = {st.t.command_ids[c] for c in st.hands[task["seat"]]}
    # First Strike answers an enemy close combat; it is played in phase 1 only when
    # nothing else is in hand (then it orders nothing: R30)
    if len(slugs) > 1:
        slugs.discard("first-strike")
    return [f"play {s}" for s in sorted(slugs)]


def _act_play(s: CCState, task: PlayTask, action: str) -> None:
    slug = action.split()[1]
    side = task["seat"]
    cid = next(c for c in s.hands[side] if s.t.command_ids[c] == slug)
    _set_card(s, side, cid)
    s.stack[-1] = as_json({"t": "order", "seat": side})
    # Dragon cards "after enemy Command" (defender), asked after those "with Command" (active)
    s.stack.append(as_json({"t": "dragon", "seat": 1 - side, "w": "after-enemy-command"}))
    s.stack.append(as_json({"t": "dragon", "seat": side, "w": "with-command"}))


def _set_card(s: CCState, side: int, cid: str) -> None:
    """Phase 1: ``cid`` leaves the hand and becomes the card played this turn."""
    slug = s.t.command_ids[cid]
    s.own_command_cards()
    s.own_score()
    s.hands[side].remove(cid)
    s.ti["card"] = cid
    card = s.t.command[slug]
    s.say("play", _play_text(s.side_name(side), card), side=side, card=cid, slug=slug)
    effective: str | None = slug
    if slug == "first-strike":
        effective = None
        s.say("no_orders", "First Strike played as a Command card orders nothing")
    elif slug == "counter-attack":
        copied = s.last_played[1 - side]
        effective = _mirror(copied) if copied and copied not in ("first-strike", "counter-attack") else None
        if effective is None:
            s.say("counter_attack", "Counter Attack has no card to copy: the opponent has not played one yet")
        else:
            s.say("counter_attack", f"Counter Attack becomes {s.t.command[effective].name}", slug=effective)
    s.last_played[side] = effective or slug
    s.ti["effective"] = effective
    s.ti["spec"] = orders._order_spec(s, side, effective) if effective else {"mode": "select", "count": 0, "filter": {}}


def _legal_pick(s: CCState, task: PickTask) -> list[str]:
    return [f"pick {i + 1}" for i in range(len(task["perm"]))]


def _act_pick(s: CCState, task: PickTask, action: str) -> None:
    k = int(action.split()[1])
    cid = task["perm"][k - 1]
    victim = task["victim"]
    s.stack.pop()
    s.own_cards()
    s.hands[victim].remove(cid)
    s.cmd_discard.append(cid)
    s.say("discard", f"{s.side_name(1 - victim)} picks face-down card {k}: {s.side_name(victim)} discards "
             f"{s.card_name(cid)}", side=victim, card=cid)


def _auto_end(s: CCState, task: EndTask) -> bool:
    side = task["seat"]
    step = task["step"]
    if step == "wise":
        # Phase 5 begins: the Command card played is discarded
        cid = s.ti["card"]
        if cid is not None:
            s.own_command_cards()
            s.cmd_discard.append(cid)
            s.ti["card"] = None
        if dragons.window_opens(s, side, "end"):
            return False  # Wise Advisor may be played instead of drawing (asked on public facts: R32)
        task["step"] = "draw"
        return True
    if step == "wise-pick":
        return False
    if step == "draw":
        s.own_command_cards()
        eff_slug = s.ti.get("effective") or ""
        if s.order_one_banner == side and eff_slug.startswith("order-one-"):
            if s.banners[side] + 1 < s.victory:
                victory.award_banner(s, side, 1, "an Order One Unit card played (scenario rule)", objective=True)
            else:
                s.say("no_banner", "The scenario's Order One banner cannot give the last Victory Banner")
        for fs in s.ti.get("first_strikes", []):
            # "At the end of the turn, you draw a replacement Command card first."
            s.cmd_discard.append(fs["card"])
            got = cards.draw_command(s, fs["side"])
            if got is not None:
                s.hands[fs["side"]].append(got)
                s.say_private(fs["side"], "draw", card_text(s.t, f"{s.side_name(fs['side'])} draws ", got),
                                 f"{s.side_name(fs['side'])} draws a Command card", side=fs["side"], card=got)
        s.ti["first_strikes"] = []
        eff = s.ti.get("effective")
        card = s.t.command[eff] if eff else None
        if eff == "shogun":
            s.cmd_deck = s.own_rng().shuffled(s.cmd_deck + s.cmd_discard)
            s.cmd_discard = []
            s.dr_deck = s.own_rng().shuffled(s.dr_deck + s.dr_discard)
            s.dr_discard = []
            s.say("reshuffle", "Shogun: both the Command and the Dragon decks are reshuffled with their discards")
        n = 2 if card is not None and card.draw_two else 1
        if s.ti.get("wise_taken"):
            n = 0  # Wise Advisor: a card from the discard pile instead of the draw
        drawn = [c for c in (cards.draw_command(s, side) for _ in range(n)) if c is not None]
        # asked even when both cards are alike (one choice then), so that whether he is asked
        # tells the opponent nothing about the cards drawn (R32)
        if len(drawn) == 2:
            task["drawn"] = drawn
            task["step"] = "keep"
            names = " and ".join(s.card_name(c) for c in drawn)
            s.say_private(side, "draw_two", f"{s.side_name(side)} draws {names} and must keep one",
                             f"{s.side_name(side)} draws 2 Command cards and keeps one", side=side, cards=drawn)
            return False
        if drawn:
            s.hands[side].append(drawn[0])
            for extra in drawn[1:]:
                s.cmd_discard.append(extra)
            s.say_private(side, "draw", card_text(s.t, f"{s.side_name(side)} draws ", drawn[0]),
                             f"{s.side_name(side)} draws a Command card", side=side, card=drawn[0])
        task["step"] = "discard"
        return True
    if step == "discard":
        if s.ti["dragon_played"][side] or not s.dragons[side]:
            task["step"] = "replenish"
            return True
        return False
    if step == "replenish":
        return False
    return False


def _legal_end(st: CCState, task: EndTask) -> list[str]:
    side = task["seat"]
    step = task["step"]
    if step == "wise":
        return [*dragons.actions(st, side, "end"), "pass"]
    if step == "wise-pick":
        return sorted({f"take {st.t.command_ids[c]}" for c in st.cmd_discard})
    if step == "keep":
        return sorted({f"keep {st.t.command_ids[c]}" for c in task["drawn"]})
    if step == "discard":
        slugs = sorted({st.t.dragon_ids[d] for d in st.dragons[side]})
        return [*(f"discard-dragon {s}" for s in slugs), "keep-dragons"]
    if step == "replenish":
        acts = ["take-honor"]
        if st.dr_deck or st.dr_discard:
            acts.insert(0, "draw-dragon")
        return acts
    return []


def _act_end(s: CCState, task: EndTask, action: str) -> None:
    side = task["seat"]
    step = task["step"]
    # the Command cards' steps may change them, the Dragon cards' steps only those (own_*)
    if step == "discard" or step == "replenish":
        s.own_dragon_cards()
    else:
        s.own_cards()
    if step == "wise":
        task["step"] = "draw"
        if action != "pass":
            dragons.play(s, side, action)
            task["step"] = "wise-pick"
        return
    if step == "wise-pick":
        slug = action.split()[1]
        cid = next(c for c in reversed(s.cmd_discard) if s.t.command_ids[c] == slug)
        s.cmd_discard.remove(cid)
        s.hands[side].append(cid)
        s.ti["wise_taken"] = True
        s.say("wise_advisor", f"{s.side_name(side)} takes {s.card_name(cid)} from the discard pile", side=side,
                 card=cid)
        task["step"] = "draw"
        return
    if step == "keep":
        slug = action.split()[1]
        keep = next(c for c in task["drawn"] if s.t.command_ids[c] == slug)
        other = [c for c in task["drawn"] if c != keep]
        s.hands[side].append(keep)
        s.cmd_discard.extend(other)
        s.say_private(side, "keep", f"{s.side_name(side)} keeps {s.card_name(keep)} and discards "
                         f"{', '.join(s.card_name(c) for c in other)}",
                         f"{s.side_name(side)} keeps one card and discards "
                         f"{', '.join(s.card_name(c) for c in other)}", side=side, card=keep)
        del task["drawn"]
        task["step"] = "discard"
    elif step == "discard":
        if action != "keep-dragons":
            slug = action.split()[1]
            did = next(d for d in s.dragons[side] if s.t.dragon_ids[d] == slug)
            s.dragons[side].remove(did)
            s.dr_discard.append(did)
            s.say("discard_dragon", dragon_text(s.t, f"{s.side_name(side)} discards the Dragon card ", did),
                     side=side, card=did)
            honor.gain_honor(s, side, 1, "a Dragon card discarded")
        task["step"] = "replenish"
    elif step == "replenish":
        if action == "draw-dragon":
            cards.draw_dragon(s, side)
        else:
            honor.gain_honor(s, side, 2, "end of turn")
        if s.dragon_tokens:
            s.pool += s.dragon_tokens
            s.say("honor", f"{s.dragon_tokens} Honor & Fortune on the Dragon cards go back to the pool")
            s.dragon_tokens = 0
        s.dr_discard.extend(s.ti["dragons_in_play"])
        s.ti["dragons_in_play"] = []
        s.stack.pop()
        _start_turn(s)
