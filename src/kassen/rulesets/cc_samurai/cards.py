"""The Command and Dragon decks: drawing (a deck run out is reshuffled from its discards) and a
Command card lost at random. Rules functions over the state (state.py), below every module
that draws or discards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kassen.rulesets.cc_samurai.common import card_text, dragon_text

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


def _lose_random_card(s: CCState, side: int, why: str) -> None:
    """A random Command card of ``side`` is discarded; his command shrinks by one."""
    s.own_cards()
    s.own_score()
    if s.hands[side]:
        cid = s.hands[side].pop(s.own_rng().randbelow(len(s.hands[side])))
        s.cmd_discard.append(cid)
        s.say("discard", card_text(s.t, f"{s.side_name(side)} discards ", cid, f" at random ({why})"),
                 side=side, card=cid, random=True)
    s.command[side] = max(1, s.command[side] - 1)


def draw_command(s: CCState, side: int) -> str | None:
    s.own_command_cards()
    if not s.cmd_deck:
        if not s.cmd_discard:
            return None
        s.cmd_deck = s.own_rng().shuffled(s.cmd_discard)
        s.cmd_discard = []
        s.say("reshuffle", "The Command deck is reshuffled from its discards")
    return s.cmd_deck.pop()


def draw_dragon(s: CCState, side: int) -> str | None:
    s.own_dragon_cards()
    if not s.dr_deck:
        if not s.dr_discard:
            return None
        s.dr_deck = s.own_rng().shuffled(s.dr_discard)
        s.dr_discard = []
        s.say("reshuffle", "The Dragon deck is reshuffled from its discards")
    did = s.dr_deck.pop()
    s.dragons[side].append(did)
    s.say_private(side, "draw_dragon", dragon_text(s.t, f"{s.side_name(side)} draws the Dragon card ", did),
                     f"{s.side_name(side)} draws a Dragon card", side=side, card=did)
    return did
