# mypy: disable-error-code="misc"
# (the methods type ``self`` as the whole CCState, which mypy allows only for supertypes: "misc")
"""The turn: start of turn, Phase 1 (playing a Command card), Phase 5 (end of turn: Wise
Advisor, drawing, Dragon cards or Honor & Fortune), the decks and their reshuffles.

A rule mixin of ``CCState`` (state.py); the data it works on: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import trait

from kassen.engine.events import LazyText
from kassen.engine.protocol import Result
from kassen.rulesets.cc_samurai import dragons
from kassen.rulesets.cc_samurai.common import (
    CCStateData,
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


@trait
class TurnRules(CCStateData):
    def begin_game(self: CCState) -> None:
        self._start_turn(first=True)
        self.advance()
        self.events = tuple(self._ev)
        self._ev = []

    def _start_turn(self: CCState, first: bool = False) -> None:
        if not first:
            self.active = 1 - self.active
            self.turn += 1
        self.ti = _new_turn_info()
        self.say("turn", f"Turn {self.turn}: {self.side_name(self.active)} to play", turn=self.turn, side=self.active)
        # Enemy Command Tent: a unit in the enemy tent hex at the start of a turn captures it.
        for owner, th in sorted(self.tents.items()):
            u = self.units.get(th)
            if u is not None and u.side != owner:
                self._drop_tent(owner, th)
                self.say("tent", f"{self.side_name(u.side)} captures the {self.side_name(owner)} command tent at {self.name(th)}",
                         hex=self.name(th))
                self._lose_random_card(owner, "the command tent was taken")
                self.award_banner(u.side, self.tent_banners, "enemy command tent taken", objective=True)
                if self._result is not None:
                    return
        self._check_objectives()
        if self._result is not None:
            return
        # End Game & Victory: a player starting his turn with a single Command card surrenders.
        if len(self.hands[self.active]) <= 1:
            winner = 1 - self.active
            self.say("surrender", f"{self.side_name(self.active)} starts the turn with a single Command card and surrenders",
                     side=self.active)
            self._result = Result(winner, "surrender", (1.0, 0.0) if winner == 0 else (0.0, 1.0))
            return
        self.stack = [as_json({"t": "play", "seat": self.active})]

    def _lose_random_card(self: CCState, side: int, why: str) -> None:
        """A random Command card of ``side`` is discarded; his command shrinks by one."""
        self.own_cards()
        self.own_score()
        if self.hands[side]:
            cid = self.hands[side].pop(self.own_rng().randbelow(len(self.hands[side])))
            self.cmd_discard.append(cid)
            self.say("discard", card_text(self.t, f"{self.side_name(side)} discards ", cid, f" at random ({why})"),
                     side=side, card=cid, random=True)
        self.command[side] = max(1, self.command[side] - 1)

    def draw_command(self: CCState, side: int) -> str | None:
        self.own_command_cards()
        if not self.cmd_deck:
            if not self.cmd_discard:
                return None
            self.cmd_deck = self.own_rng().shuffled(self.cmd_discard)
            self.cmd_discard = []
            self.say("reshuffle", "The Command deck is reshuffled from its discards")
        return self.cmd_deck.pop()

    def draw_dragon(self: CCState, side: int) -> str | None:
        self.own_dragon_cards()
        if not self.dr_deck:
            if not self.dr_discard:
                return None
            self.dr_deck = self.own_rng().shuffled(self.dr_discard)
            self.dr_discard = []
            self.say("reshuffle", "The Dragon deck is reshuffled from its discards")
        did = self.dr_deck.pop()
        self.dragons[side].append(did)
        self.say_private(side, "draw_dragon", dragon_text(self.t, f"{self.side_name(side)} draws the Dragon card ", did),
                         f"{self.side_name(side)} draws a Dragon card", side=side, card=did)
        return did

    def _legal_play(self: CCState, task: PlayTask) -> list[str]:
        slugs: set[str] = {self.t.command_ids[c] for c in self.hands[task["seat"]]}
        # First Strike answers an enemy close combat; it is played in phase 1 only when
        # nothing else is in hand (then it orders nothing: R30)
        if len(slugs) > 1:
            slugs.discard("first-strike")
        return [f"play {s}" for s in sorted(slugs)]

    def _act_play(self: CCState, task: PlayTask, action: str) -> None:
        slug = action.split()[1]
        side = task["seat"]
        cid = next(c for c in self.hands[side] if self.t.command_ids[c] == slug)
        self._set_card(side, cid)
        self.stack[-1] = as_json({"t": "order", "seat": side})
        # Dragon cards "after enemy Command" (defender), asked after those "with Command" (active)
        self.stack.append(as_json({"t": "dragon", "seat": 1 - side, "w": "after-enemy-command"}))
        self.stack.append(as_json({"t": "dragon", "seat": side, "w": "with-command"}))

    def _set_card(self: CCState, side: int, cid: str) -> None:
        """Phase 1: ``cid`` leaves the hand and becomes the card played this turn."""
        slug = self.t.command_ids[cid]
        self.own_command_cards()
        self.own_score()
        self.hands[side].remove(cid)
        self.ti["card"] = cid
        card = self.t.command[slug]
        self.say("play", _play_text(self.side_name(side), card), side=side, card=cid, slug=slug)
        effective: str | None = slug
        if slug == "first-strike":
            effective = None
            self.say("no_orders", "First Strike played as a Command card orders nothing")
        elif slug == "counter-attack":
            copied = self.last_played[1 - side]
            effective = _mirror(copied) if copied and copied not in ("first-strike", "counter-attack") else None
            if effective is None:
                self.say("counter_attack", "Counter Attack has no card to copy: the opponent has not played one yet")
            else:
                self.say("counter_attack", f"Counter Attack becomes {self.t.command[effective].name}", slug=effective)
        self.last_played[side] = effective or slug
        self.ti["effective"] = effective
        self.ti["spec"] = self._order_spec(side, effective) if effective else {"mode": "select", "count": 0, "filter": {}}

    def _legal_pick(self: CCState, task: PickTask) -> list[str]:
        return [f"pick {i + 1}" for i in range(len(task["perm"]))]

    def _act_pick(self: CCState, task: PickTask, action: str) -> None:
        k = int(action.split()[1])
        cid = task["perm"][k - 1]
        victim = task["victim"]
        self.stack.pop()
        self.own_cards()
        self.hands[victim].remove(cid)
        self.cmd_discard.append(cid)
        self.say("discard", f"{self.side_name(1 - victim)} picks face-down card {k}: {self.side_name(victim)} discards "
                 f"{self.card_name(cid)}", side=victim, card=cid)

    def _auto_end(self: CCState, task: EndTask) -> bool:
        side = task["seat"]
        step = task["step"]
        if step == "wise":
            # Phase 5 begins: the Command card played is discarded
            cid = self.ti["card"]
            if cid is not None:
                self.own_command_cards()
                self.cmd_discard.append(cid)
                self.ti["card"] = None
            if dragons.window_opens(self, side, "end"):
                return False  # Wise Advisor may be played instead of drawing (asked on public facts: R32)
            task["step"] = "draw"
            return True
        if step == "wise-pick":
            return False
        if step == "draw":
            self.own_command_cards()
            eff_slug = self.ti.get("effective") or ""
            if self.order_one_banner == side and eff_slug.startswith("order-one-"):
                if self.banners[side] + 1 < self.victory:
                    self.award_banner(side, 1, "an Order One Unit card played (scenario rule)", objective=True)
                else:
                    self.say("no_banner", "The scenario's Order One banner cannot give the last Victory Banner")
            for fs in self.ti.get("first_strikes", []):
                # "At the end of the turn, you draw a replacement Command card first."
                self.cmd_discard.append(fs["card"])
                got = self.draw_command(fs["side"])
                if got is not None:
                    self.hands[fs["side"]].append(got)
                    self.say_private(fs["side"], "draw", card_text(self.t, f"{self.side_name(fs['side'])} draws ", got),
                                     f"{self.side_name(fs['side'])} draws a Command card", side=fs["side"], card=got)
            self.ti["first_strikes"] = []
            eff = self.ti.get("effective")
            card = self.t.command[eff] if eff else None
            if eff == "shogun":
                self.cmd_deck = self.own_rng().shuffled(self.cmd_deck + self.cmd_discard)
                self.cmd_discard = []
                self.dr_deck = self.own_rng().shuffled(self.dr_deck + self.dr_discard)
                self.dr_discard = []
                self.say("reshuffle", "Shogun: both the Command and the Dragon decks are reshuffled with their discards")
            n = 2 if card is not None and card.draw_two else 1
            if self.ti.get("wise_taken"):
                n = 0  # Wise Advisor: a card from the discard pile instead of the draw
            drawn = [c for c in (self.draw_command(side) for _ in range(n)) if c is not None]
            # asked even when both cards are alike (one choice then), so that whether he is asked
            # tells the opponent nothing about the cards drawn (R32)
            if len(drawn) == 2:
                task["drawn"] = drawn
                task["step"] = "keep"
                names = " and ".join(self.card_name(c) for c in drawn)
                self.say_private(side, "draw_two", f"{self.side_name(side)} draws {names} and must keep one",
                                 f"{self.side_name(side)} draws 2 Command cards and keeps one", side=side, cards=drawn)
                return False
            if drawn:
                self.hands[side].append(drawn[0])
                for extra in drawn[1:]:
                    self.cmd_discard.append(extra)
                self.say_private(side, "draw", card_text(self.t, f"{self.side_name(side)} draws ", drawn[0]),
                                 f"{self.side_name(side)} draws a Command card", side=side, card=drawn[0])
            task["step"] = "discard"
            return True
        if step == "discard":
            if self.ti["dragon_played"][side] or not self.dragons[side]:
                task["step"] = "replenish"
                return True
            return False
        if step == "replenish":
            return False
        return False

    def _legal_end(self: CCState, task: EndTask) -> list[str]:
        side = task["seat"]
        step = task["step"]
        if step == "wise":
            return [*dragons.actions(self, side, "end"), "pass"]
        if step == "wise-pick":
            return sorted({f"take {self.t.command_ids[c]}" for c in self.cmd_discard})
        if step == "keep":
            return sorted({f"keep {self.t.command_ids[c]}" for c in task["drawn"]})
        if step == "discard":
            slugs = sorted({self.t.dragon_ids[d] for d in self.dragons[side]})
            return [*(f"discard-dragon {s}" for s in slugs), "keep-dragons"]
        if step == "replenish":
            acts = ["take-honor"]
            if self.dr_deck or self.dr_discard:
                acts.insert(0, "draw-dragon")
            return acts
        return []

    def _act_end(self: CCState, task: EndTask, action: str) -> None:
        side = task["seat"]
        step = task["step"]
        # the Command cards' steps may change them, the Dragon cards' steps only those (own_*)
        if step == "discard" or step == "replenish":
            self.own_dragon_cards()
        else:
            self.own_cards()
        if step == "wise":
            task["step"] = "draw"
            if action != "pass":
                dragons.play(self, side, action)
                task["step"] = "wise-pick"
            return
        if step == "wise-pick":
            slug = action.split()[1]
            cid = next(c for c in reversed(self.cmd_discard) if self.t.command_ids[c] == slug)
            self.cmd_discard.remove(cid)
            self.hands[side].append(cid)
            self.ti["wise_taken"] = True
            self.say("wise_advisor", f"{self.side_name(side)} takes {self.card_name(cid)} from the discard pile", side=side,
                     card=cid)
            task["step"] = "draw"
            return
        if step == "keep":
            slug = action.split()[1]
            keep = next(c for c in task["drawn"] if self.t.command_ids[c] == slug)
            other = [c for c in task["drawn"] if c != keep]
            self.hands[side].append(keep)
            self.cmd_discard.extend(other)
            self.say_private(side, "keep", f"{self.side_name(side)} keeps {self.card_name(keep)} and discards "
                             f"{', '.join(self.card_name(c) for c in other)}",
                             f"{self.side_name(side)} keeps one card and discards "
                             f"{', '.join(self.card_name(c) for c in other)}", side=side, card=keep)
            del task["drawn"]
            task["step"] = "discard"
        elif step == "discard":
            if action != "keep-dragons":
                slug = action.split()[1]
                did = next(d for d in self.dragons[side] if self.t.dragon_ids[d] == slug)
                self.dragons[side].remove(did)
                self.dr_discard.append(did)
                self.say("discard_dragon", dragon_text(self.t, f"{self.side_name(side)} discards the Dragon card ", did),
                         side=side, card=did)
                self.gain_honor(side, 1, "a Dragon card discarded")
            task["step"] = "replenish"
        elif step == "replenish":
            if action == "draw-dragon":
                self.draw_dragon(side)
            else:
                self.gain_honor(side, 2, "end of turn")
            if self.dragon_tokens:
                self.pool += self.dragon_tokens
                self.say("honor", f"{self.dragon_tokens} Honor & Fortune on the Dragon cards go back to the pool")
                self.dragon_tokens = 0
            self.dr_discard.extend(self.ti["dragons_in_play"])
            self.ti["dragons_in_play"] = []
            self.stack.pop()
            self._start_turn()
