"""Every Battlefield effect at its time (002:436-535)."""

from __future__ import annotations

import pytest

from kassen.engine.errors import IllegalActionError
from tests.rulesets.clans.helpers import H, J, K, army, outcome, play, position

DEPLOY = {"phase": "deploy", "rnd": 1, "left": 2}


# ---------------------------------------------------------------- deployment: Bridge
def test_bridge_holds_at_most_three_cards_per_player():
    """002:443-445, C9."""
    s = position([("bridge", 0, 1), ("port", 0, 1)],
                 {"bridge": ([f"{K}-brute", f"{K}-archer", f"{K}-samurai"], [])},
                 hands=[army(K), army(H)], **DEPLOY)
    assert not any(a.endswith(" bridge") and a.startswith("deploy ") for a in s.legal_actions())
    with pytest.raises(IllegalActionError, match="cannot be deployed"):
        s.apply("deploy lord bridge")
    s2 = position([("bridge", 0, 1), ("port", 0, 1)], {"bridge": ([f"{K}-brute", f"{K}-archer"], [])},
                  hands=[army(K), army(H)], **DEPLOY)
    assert "deploy lord bridge" in s2.legal_actions()
    assert "deploy lord bridge" not in s2.apply("deploy lord bridge").legal_actions()


def test_qa_general_cannot_be_placed_on_the_bridge_when_you_already_have_three_cards():
    """Q&A 002:573-582."""
    s = position([("bridge", 0, 1), ("port", 0, 1)],
                 {"bridge": ([f"{K}-brute", f"{K}-archer", f"{K}-samurai"], [])},
                 hands=[army(K), army(H)], **DEPLOY)
    with pytest.raises(IllegalActionError):
        s.apply("deploy general bridge")


def test_qa_assassin_can_be_placed_on_the_bridge_when_the_opponent_has_three_cards():
    """Q&A 002:561-571: she eliminates a card first, then takes its place."""
    s = position([("bridge", 0, 1), ("port", 0, 1)],
                 {"bridge": ([], [f"{H}-brute", f"{H}-archer", f"{H}-samurai"])},
                 hands=[army(K), army(H)], **DEPLOY)
    s = s.apply("assassin bridge hondo 3")
    assert [c for c, _, _ in s.stacks[0][1]] == [f"{H}-brute", f"{H}-archer", f"{K}-assassin"]


# ---------------------------------------------------------------- before combat: Sanctuary
def test_sanctuary_each_player_destroys_his_weakest_card_after_the_abilities():
    """002:447-457: the Samurai's victims go first; then each side loses its weakest card."""
    s = position([("sanctuary", 0, 1)],
                 {"sanctuary": ([f"{K}-peasant-1", f"{K}-brute", f"{K}-scout"], [f"{H}-samurai", f"{H}-lord"])})
    s = s.apply("resolve sanctuary")
    o = outcome(s, "sanctuary")
    # Kamiwashi: the Samurai takes Peasant and Brute, the Sanctuary the Scout -> 0 cards;
    # Hondo: the Lord (2) is weaker than the Samurai (4) -> Samurai alone
    assert o["totals"] == [0, 4] and o["winner"] == 1
    assert [c for c, _, _ in s.stacks[0][1]] == [f"{H}-samurai"]
    assert s.vp == [0, 6]


def test_sanctuary_tie_for_weakest_is_the_players_choice():
    """002:455-457, C14: each player chooses among his equally weak cards; the choices
    are simultaneous, so the second player does not see the first one's."""
    s = position([("sanctuary", 0, 1)],
                 {"sanctuary": ([f"{K}-peasant-1", f"{K}-lord", f"{K}-peasant-2"], [f"{H}-scout", f"{H}-shugenja"])})
    s = s.apply("resolve sanctuary")
    assert s.phase == "sanctuary" and s.to_move() == 0
    assert s.legal_actions() == ["destroy 1", "destroy 3"]
    above = s.apply("destroy 3")  # the Lord loses the card above him: 2
    below = s.apply("destroy 1")  # the Lord keeps it: 3
    assert above.to_move() == 1 and above.legal_actions() == ["destroy 1", "destroy 2"]
    assert above.observation(1) == below.observation(1)  # the first choice is hidden
    assert above.observation(1)["board"][0]["sides"][0]["count"] == 3
    a = above.apply("destroy 1")
    b = below.apply("destroy 2")
    assert outcome(a, "sanctuary")["totals"] == [2, 1]
    assert outcome(b, "sanctuary")["totals"] == [3, 1]


# ---------------------------------------------------------------- during combat
def test_port_adds_one_per_face_up_card_counted_before_secret_cards_are_revealed():
    """002:462-468, C16: Regular cards, Scout-revealed cards and Assassins count; not the
    cards that were face down when combat began."""
    s = position([("port", 0, 1)],
                 {"port": ([f"{K}-ashigaru", f"{K}-brute!", f"{H}-assassin", f"{K}-archer"], [f"{H}-brute", f"{H}-lord"])})
    o = outcome(s.apply("resolve port"), "port")
    assert o["port"] == [3, 0]
    assert o["totals"] == [2 + 5 + 2 + 2 + 3, 5 + 2]


def test_rice_field_peasants_have_strength_one():
    """002:470-472."""
    s = position([("rice-field", 0, 1), ("torii", 0, 1)],
                 {"rice-field": ([f"{K}-peasant-1", f"{K}-peasant-2"], [f"{H}-scout"]),
                  "torii": ([f"{K}-peasant-3", f"{K}-peasant-4"], [f"{H}-scout"])})
    s = play(s, "resolve rice-field")
    assert outcome(s, "rice-field")["totals"] == [2, 1]
    assert outcome(s, "torii")["totals"] == [0, 1]


def test_village_cards_of_strength_one_have_strength_two():
    """002:474-475 and facts.md (default value)."""
    s = position([("village", 0, 1)], {"village": ([f"{K}-scout", f"{K}-shugenja"], [f"{H}-brute"])})
    assert outcome(s.apply("resolve village"), "village")["totals"] == [4, 5]
    s = position([("village", 0, 1)], {"village": ([f"{K}-scout", f"{K}-shugenja", f"{K}-peasant-1"], [f"{H}-brute"])})
    assert outcome(s.apply("resolve village"), "village")["totals"] == [4, 5]


def test_an_army_without_cards_never_conquers_even_with_more_strength():
    """C18: at the Palace a lone Scout has -1 against an empty side; no one conquers."""
    s = position([("palace", 0, 1)], {"palace": ([f"{K}-scout"], [])})
    o = outcome(s.apply("resolve palace"), "palace")
    assert o["totals"] == [-1, 0] and o["winner"] is None


def test_palace_the_army_with_more_cards_suffers_minus_two():
    """002:478-483."""
    s = position([("palace", 0, 1)], {"palace": ([f"{K}-ashigaru", f"{K}-general", f"{K}-peasant-1"], [f"{H}-samurai"])})
    o = outcome(s.apply("resolve palace"), "palace")
    # the Samurai takes the Ashigaru and the Peasant first: one card each, no penalty
    assert o["totals"] == [2, 4] and o["winner"] == 1
    s = position([("palace", 0, 1)], {"palace": ([f"{K}-ashigaru", f"{K}-general", f"{K}-scout"], [f"{H}-brute"])})
    o = outcome(s.apply("resolve palace"), "palace")
    assert o["totals"] == [5 - 2, 5] and o["winner"] == 1
    s = position([("palace", 0, 1)], {"palace": ([f"{K}-ashigaru"], [f"{H}-general"])})
    assert outcome(s.apply("resolve palace"), "palace")["totals"] == [2, 2]


def test_golden_temple_needs_a_margin_of_four_or_no_one_conquers_and_both_armies_are_eliminated():
    """002:484-492, C15."""
    s = position([("golden-temple", 0, 1)], {"golden-temple": ([f"{K}-brute"], [f"{H}-ashigaru", f"{H}-scout"])})
    s = s.apply("resolve golden-temple")
    assert outcome(s, "golden-temple")["winner"] is None and s.stacks[0] == [[], []]
    assert s.vp == [0, 0]
    s = position([("golden-temple", 0, 1)], {"golden-temple": ([f"{K}-brute", f"{K}-scout"], [f"{H}-shugenja", f"{H}-peasant-1"])})
    assert outcome(s.apply("resolve golden-temple"), "golden-temple")["winner"] == 0
    # equal Strength: the card count cannot make a margin of 4 (C15)
    s = position([("golden-temple", 0, 1)], {"golden-temple": ([f"{K}-ashigaru", f"{K}-peasant-1"], [f"{H}-general"])})
    assert outcome(s.apply("resolve golden-temple"), "golden-temple")["winner"] is None


def test_fortress_the_stronger_army_needs_three_cards_or_no_one_conquers():
    """002:494-501, C15."""
    s = position([("fortress", 0, 1)], {"fortress": ([f"{K}-brute", f"{K}-samurai"], [f"{H}-scout"])})
    s = s.apply("resolve fortress")
    assert outcome(s, "fortress")["winner"] is None and s.stacks[0] == [[], []]
    s = position([("fortress", 0, 1)], {"fortress": ([f"{K}-brute", f"{K}-samurai", f"{K}-scout"], [f"{H}-scout"])})
    assert outcome(s.apply("resolve fortress"), "fortress")["winner"] == 0
    # equal Strength: the tie goes to more cards, who must still have three (C15)
    s = position([("fortress", 0, 1)],
                 {"fortress": ([f"{K}-ashigaru", f"{K}-peasant-1", f"{K}-peasant-2"], [f"{H}-general"])})
    assert outcome(s.apply("resolve fortress"), "fortress")["winner"] == 0


# ---------------------------------------------------------------- after combat
def _camp_end(cards: dict, tiles: list, n: int = 2, teams: bool = False, **kw) -> object:
    """The last card of the game (Hondo's Ashigaru on the Torii) is about to be deployed."""
    return position(tiles, cards, n=n, teams=teams, phase="deploy", rnd=7, left=1, turn=n - 1, **kw)


def test_supply_camp_is_resolved_first_and_its_conqueror_chooses_two_battlefields_for_plus_one():
    """002:205-206, 508-529, C12, C17."""
    tiles = [("torii", 0, 1), ("supply-camp", 0, 1), ("port", 0, 1), ("palace", 0, 1)]
    cards = {"supply-camp": ([f"{K}-brute"], []), "torii": ([f"{K}-ashigaru"], []),
             "port": ([f"{K}-peasant-1"], [f"{H}-peasant-1"]), "palace": ([f"{K}-scout"], [f"{H}-scout"])}
    s = _camp_end(cards, tiles, hands=[[], [f"{H}-general"]])
    s = s.apply("deploy general torii")
    assert outcome(s, "supply-camp")["winner"] == 0
    assert [o is not None and o.get("done") for o in s.outcome] == [False, True, False, False]
    assert s.phase == "supply" and s.to_move() == 0
    assert s.legal_actions() == ["bonus torii port", "bonus torii palace", "bonus port palace"]
    s = s.apply("bonus port palace")
    assert s.bonus[2] == [1, 0] and s.bonus[3] == [1, 0]
    s = play(s, "resolve port", "resolve palace")
    assert outcome(s, "port")["winner"] == 0 and outcome(s, "palace")["winner"] == 0
    assert outcome(s, "torii")["winner"] is None  # 2 against 2, one card each: no bonus there


def test_supply_camp_bonus_may_go_to_a_partner_in_the_team_game():
    """002:527-529, C17: Kamiwashi's partner is Yasei (opposite)."""
    tiles = [("supply-camp", 0, 1), ("torii", 0, 3), ("port", 2, 1), ("palace", 2, 3), ("village", 1, 3)]
    cards = {"supply-camp": ([f"{K}-brute"], [])}
    s = _camp_end(cards, tiles, n=4, teams=True, hands=[[], [], [], [f"{J}-ashigaru"]])
    s = s.apply("deploy ashigaru torii")
    assert s.phase == "supply" and s.to_move() == 0
    assert s.legal_actions() == ["bonus torii port", "bonus torii palace", "bonus port palace"]
    s = s.apply("bonus port palace")
    assert s.bonus[2] == [1, 0] and s.bonus[3] == [1, 0]  # Yasei's sides
    # without teams the partner's Battlefields are not eligible
    s = _camp_end(cards, tiles, n=4, teams=False, hands=[[], [], [], [f"{J}-ashigaru"]])
    s = s.apply("deploy ashigaru torii")
    assert s.bonus[1] == [1, 0] and s.phase == "resolve"  # the only eligible one gets it


def test_supply_camp_not_conquered_gives_no_bonus():
    tiles = [("supply-camp", 0, 1), ("torii", 0, 1), ("port", 0, 1)]
    s = _camp_end({}, tiles, hands=[[], [f"{H}-ashigaru"]])
    s = s.apply("deploy ashigaru port")
    assert outcome(s, "supply-camp")["winner"] is None and s.phase == "resolve"
    assert all(b == [0, 0] for b in s.bonus)


def test_torii_gains_one_vp_for_each_other_battlefield_its_conqueror_conquers():
    """002:531-535."""
    s = position([("torii", 0, 1), ("port", 0, 1), ("palace", 0, 1), ("bridge", 0, 1)],
                 {"torii": ([f"{K}-brute"], []), "port": ([f"{K}-ashigaru"], []),
                  "palace": ([f"{K}-scout", f"{K}-general"], []), "bridge": ([], [f"{H}-scout"])})
    s = play(s, "resolve torii", "resolve port", "resolve palace")
    assert s.vp == [4 + 2 + 4 + 6, 6]
    s = position([("torii", 0, 1), ("port", 0, 1)], {"torii": ([], [f"{H}-brute"]), "port": ([f"{K}-ashigaru"], [])})
    s = play(s, "resolve port")
    assert s.vp == [4, 4]  # the Torii's bonus counts only its own conqueror's conquests
