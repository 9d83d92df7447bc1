"""Every Army card's ability (002:280-431, facts.md for the lost values)."""

from __future__ import annotations

import json

import pytest

from kassen.engine.errors import IllegalActionError
from kassen.engine.events import events_for_seat
from tests.rulesets.clans.helpers import H, K, Y, army, outcome, play, position

DEPLOY = {"phase": "deploy", "rnd": 1, "left": 2}


def hands2() -> list[list[str]]:
    return [army(K), army(H)]


# ---------------------------------------------------------------- Scout
def test_scout_reveals_an_opponent_secret_card_on_its_battlefield_without_changing_the_order():
    """002:283-293, C21, C22: the ability resolves before the turn's second card."""
    s = position([("torii", 0, 1), ("port", 0, 1)],
                 {"torii": ([], [f"{H}-lord", f"{H}-archer"]), "port": ([], [f"{H}-brute"])},
                 hands=hands2(), **DEPLOY)
    s = s.apply("deploy scout torii")
    assert s.phase == "ability" and s.to_move() == 0
    assert s.legal_actions() == ["reveal torii hondo 1", "reveal torii hondo 2"]  # never the Port's card
    s = s.apply("reveal torii hondo 2")
    assert [e[:2] for e in s.stacks[0][1]] == [(f"{H}-lord", False), (f"{H}-archer", True)]
    assert s.observation(0)["board"][0]["sides"][1]["cards"][1]["type"] == "archer"
    assert s.phase == "deploy" and s.left == 1


def test_scout_revealed_card_still_acts_only_at_combat_resolution():
    """002:290-293: the revealed Archer eliminates the Samurai during Combat Resolution."""
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-samurai", f"{K}-scout"], [f"{H}-archer!", f"{H}-ashigaru"])})
    assert any(c == f"{K}-samurai" for c, _, _ in s.stacks[0][0])  # nothing happened on the reveal
    s = s.apply("resolve torii")
    assert outcome(s, "torii")["totals"] == [1, 4] and outcome(s, "torii")["winner"] == 1


def test_scout_without_a_face_down_target_has_no_effect():
    """002:153-155: an ability that cannot activate does nothing."""
    s = position([("torii", 0, 1)], {"torii": ([], [f"{H}-ashigaru"])}, hands=hands2(), **DEPLOY)
    s = s.apply("deploy scout torii")
    assert s.phase == "deploy" and s.left == 1
    assert any(e.kind == "no-effect" for e in s.events)


# ---------------------------------------------------------------- Shugenja
def test_shugenja_sees_one_secret_card_and_only_that_seat_learns_it():
    """002:295-304, C21."""
    s = position([("torii", 0, 1), ("port", 1, 2), ("bridge", 2, 0)],
                 {"port": ([f"{H}-samurai"], [f"{Y}-lord"]), "torii": ([], [f"{H}-brute"])},
                 n=3, hands=[army(K), army(H), army(Y)], **DEPLOY)
    s = s.apply("deploy shugenja bridge")
    # any Battlefield, even one Kamiwashi does not fight on; never his own cards
    assert s.legal_actions() == ["peek torii hondo 1", "peek port hondo 1", "peek port yasei 1"]
    s = s.apply("peek port yasei 1")
    assert s.stacks[1][1][0] == (f"{Y}-lord", False, 0b101)
    assert f"{Y}-lord" not in s.secrets(0)
    assert f"{Y}-lord" in s.secrets(1) and f"{Y}-lord" in s.secrets(None)
    assert f"{Y}-lord" in json.dumps(s.observation(0))
    for seat in (1, None):
        assert f"{Y}-lord" not in json.dumps(s.observation(seat))
        assert all("Lord" not in e.text for e in events_for_seat(s.events, seat))
    assert any("Yasei Lord" in e.text for e in events_for_seat(s.events, 0))
    assert s.stacks[1][1][0][1] is False  # put back face down


# ---------------------------------------------------------------- General
def test_general_moves_a_secret_card_to_the_top_of_another_battlefield_where_you_fight():
    """002:306-316, C20: the card stays face down; the others do not learn what it is."""
    s = position([("torii", 0, 1), ("port", 0, 1), ("village", 1, 2)],
                 {"torii": ([f"{K}-lord", f"{K}-peasant-1"], []), "port": ([f"{K}-brute"], [])},
                 n=3, hands=[army(K), army(H), army(Y)], **DEPLOY)
    s = s.apply("deploy general torii")
    assert s.legal_actions() == ["move torii 1 port", "move torii 2 port"]
    s = s.apply("move torii 1 port")
    assert [c for c, _, _ in s.stacks[0][0]] == [f"{K}-peasant-1", f"{K}-general"]
    assert [c for c, _, _ in s.stacks[1][0]] == [f"{K}-brute", f"{K}-lord"]
    assert s.stacks[1][0][1][1] is False
    public = [e.text for e in events_for_seat(s.events, 1)]
    assert public and all("Lord" not in t for t in public)


def test_general_must_move_the_only_face_down_card_on_his_battlefield():
    """002:317-319, C20: there is no way to decline."""
    s = position([("torii", 0, 1), ("port", 0, 1)], {"torii": ([f"{K}-lord"], [])}, hands=hands2(), **DEPLOY)
    s = s.apply("deploy general torii")
    assert s.legal_actions() == ["move torii 1 port"]
    with pytest.raises(IllegalActionError):
        s.apply("deploy brute torii")


def test_general_cannot_move_a_card_onto_a_full_bridge_and_then_has_no_effect():
    """C9."""
    s = position([("torii", 0, 1), ("bridge", 0, 1)],
                 {"torii": ([f"{K}-lord"], []), "bridge": ([f"{K}-brute", f"{K}-archer", f"{K}-samurai"], [])},
                 hands=hands2(), **DEPLOY)
    s = s.apply("deploy general torii")
    assert s.phase == "deploy" and [c for c, _, _ in s.stacks[0][0]] == [f"{K}-lord", f"{K}-general"]


# ---------------------------------------------------------------- Assassin
def test_assassin_eliminates_a_face_down_card_and_is_deployed_in_its_place_in_that_army():
    """002:321-337, C11."""
    s = position([("torii", 0, 1), ("port", 1, 2), ("bridge", 2, 0)],
                 {"port": ([f"{H}-samurai", f"{H}-ashigaru", f"{H}-lord"], [f"{Y}-brute"])},
                 n=3, hands=[army(K), army(H), army(Y)], **DEPLOY)
    acts = [a for a in s.legal_actions() if "assassin" in a]
    assert acts == ["assassin port hondo 1", "assassin port hondo 3", "assassin port yasei 1",
                    "deploy-down assassin torii", "deploy-down assassin bridge"]
    s = s.apply("assassin port hondo 1")
    assert [c for c, _, _ in s.stacks[1][0]] == [f"{K}-assassin", f"{H}-ashigaru", f"{H}-lord"]
    assert s.stacks[1][0][0][1] is True
    assert (f"{H}-samurai", 0b011, "eliminated by an Assassin", 1) in s.removed
    # her owner (and the card's owner) know the eliminated card; nobody else does
    assert f"{H}-samurai" not in s.secrets(0) and f"{H}-samurai" not in s.secrets(1)
    assert f"{H}-samurai" in s.secrets(2) and f"{H}-samurai" in s.secrets(None)
    assert f"{H}-samurai" not in json.dumps(s.observation(2))
    assert f"{H}-samurai" in json.dumps(s.observation(0))


def test_assassin_strength_counts_for_the_army_she_joined():
    """002:334-337: she adds her Strength to the army where she eliminated a card."""
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-brute"], [f"{H}-assassin", f"{H}-ashigaru"])})
    s = s.apply("resolve torii")
    assert outcome(s, "torii")["totals"] == [5, 4]


def test_assassin_without_any_face_down_target_is_deployed_on_your_side():
    """C11."""
    s = position([("torii", 0, 1), ("port", 0, 1)], {"torii": ([], [f"{H}-ashigaru"])}, hands=hands2(), **DEPLOY)
    assert "deploy assassin torii" in s.legal_actions()
    s = s.apply("deploy assassin port")
    assert s.stacks[1][0] == [(f"{K}-assassin", True, 0b11)]


def test_assassin_must_strike_when_a_target_exists():
    """002:153-155 'if you can, you must'; C11."""
    s = position([("torii", 0, 1)], {"torii": ([], [f"{H}-lord"])}, hands=hands2(), **DEPLOY)
    assert not any(a.startswith("deploy assassin") for a in s.legal_actions())


# ---------------------------------------------------------------- Ashigaru, Brute
def test_ashigaru_has_no_ability_and_strength_two():
    s = position([("torii", 0, 1)], {}, hands=hands2(), **DEPLOY)
    s = s.apply("deploy ashigaru torii")
    assert s.phase == "deploy" and s.left == 1
    assert s.observation(1)["board"][0]["sides"][0]["strength_shown"] == 2


def test_brute_has_strength_five_and_no_ability():
    """facts.md: the Brute's text is lost; default Strength 5, no ability."""
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-brute"], [f"{H}-samurai"])})
    s = s.apply("resolve torii")
    assert outcome(s, "torii")["totals"] == [0, 4]  # the Samurai eliminated the Brute
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-brute"], [f"{H}-ashigaru", f"{H}-peasant-1"])})
    assert s.apply("resolve torii").outcome[0]["totals"] == [5, 2]


# ---------------------------------------------------------------- Lord
def test_lord_strength_is_two_plus_one_per_card_stacked_after_him():
    """002:371-377, C10: cards above him on his side, the opponent's cards not counted."""
    s = position([("torii", 0, 1)],
                 {"torii": ([f"{K}-peasant-1", f"{K}-lord", f"{K}-peasant-2", f"{K}-peasant-3"], [f"{H}-brute", f"{H}-scout"])})
    assert s.apply("resolve torii").outcome[0]["totals"] == [4, 6]


def test_lord_loses_the_bonus_of_cards_eliminated_above_him():
    """C10: a Samurai eliminates two Peasants above the Lord; he counts only what is left."""
    s = position([("torii", 0, 1)],
                 {"torii": ([f"{K}-lord", f"{K}-peasant-1", f"{K}-peasant-2", f"{K}-scout"], [f"{H}-samurai"])})
    o = s.apply("resolve torii").outcome[0]
    assert o["totals"] == [2 + 1 + 1, 4]


def test_lord_gives_three_vp_when_he_survives_on_a_conquered_battlefield():
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-lord", f"{K}-ashigaru"], [f"{H}-peasant-1"])})
    s = s.apply("resolve torii")
    assert s.vp == [4 + 3, 0] and outcome(s, "torii")["lord"] is True


# ---------------------------------------------------------------- Archer and Samurai
def test_archer_eliminates_the_enemy_samurai_before_the_samurai_acts():
    """002:383-392, C13: the Samurai never gets to eliminate the Ashigaru and Peasants."""
    s = position([("torii", 0, 1)],
                 {"torii": ([f"{K}-samurai", f"{K}-scout"], [f"{H}-archer", f"{H}-ashigaru", f"{H}-peasant-1"])})
    s = s.apply("resolve torii")
    o = outcome(s, "torii")
    assert o["totals"] == [1, 4] and o["winner"] == 1
    assert any(r[0] == f"{K}-samurai" and r[2] == "eliminated by an Archer" for r in s.removed)
    assert s.vp == [0, 4 + 1]  # the Peasant survived: +1


def test_archer_without_an_enemy_samurai_does_nothing():
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-brute"], [f"{H}-archer"])})
    assert outcome(s.apply("resolve torii"), "torii")["totals"] == [5, 2]


def test_samurai_eliminates_all_enemy_peasants_brute_and_ashigaru_on_its_battlefield():
    """002:394-400, C13: not the Assassin fighting for the other side."""
    s = position([("torii", 0, 1), ("port", 0, 1)],
                 {"torii": ([f"{K}-peasant-1", f"{K}-peasant-2", f"{K}-brute", f"{K}-ashigaru", f"{K}-general"],
                            [f"{H}-samurai", f"{H}-assassin"]),
                  "port": ([f"{K}-peasant-3"], [])})
    s = s.apply("resolve torii")
    o = outcome(s, "torii")
    assert o["totals"] == [2, 4 + 2] and o["winner"] == 1
    gone = sorted(r[0] for r in s.removed if r[2] == "eliminated by a Samurai")
    assert gone == sorted([f"{K}-peasant-1", f"{K}-peasant-2", f"{K}-brute", f"{K}-ashigaru"])
    assert s.stacks[1][0][0][0] == f"{K}-peasant-3"  # only on the Samurai's Battlefield


def test_both_archers_eliminate_both_samurai():
    """C13: each kind of ability acts on both sides at once."""
    s = position([("torii", 0, 1)],
                 {"torii": ([f"{K}-samurai", f"{K}-archer"], [f"{H}-samurai", f"{H}-archer", f"{H}-ashigaru"])})
    assert outcome(s.apply("resolve torii"), "torii")["totals"] == [2, 4]


# ---------------------------------------------------------------- Peasants
def test_peasants_give_one_vp_once_per_conquered_battlefield_where_one_survives():
    s = position([("torii", 0, 1), ("port", 0, 1)],
                 {"torii": ([f"{K}-peasant-1", f"{K}-peasant-2", f"{K}-brute"], []),
                  "port": ([f"{K}-peasant-3"], [f"{H}-ashigaru"])})
    s = play(s, "resolve torii")
    # Torii 4 + 1 Peasant; Port lost; Hondo: Port 4 (+1 face-up card) ; Torii bonus 0
    assert s.vp == [5, 4]


def test_peasant_eliminated_by_a_samurai_gives_no_vp():
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-peasant-1", f"{K}-brute", f"{K}-lord"], [f"{H}-samurai"])})
    s = s.apply("resolve torii")
    assert outcome(s, "torii")["winner"] == 1 and s.vp == [0, 4]
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-peasant-1", f"{K}-archer", f"{K}-lord"], [f"{H}-samurai"])})
    s = s.apply("resolve torii")
    assert s.vp == [4 + 1 + 3, 0]


def test_lord_counts_an_assassin_in_an_eliminated_cards_place_and_cards_moved_on_top():
    """C10: position decides: the Assassin above him counts, and so does a card a General
    moved on top of his stack."""
    s = position([("torii", 0, 1), ("port", 0, 1)],
                 {"torii": ([f"{K}-lord", f"{K}-peasant-1"], []), "port": ([f"{K}-brute"], [])},
                 hands=hands2(), phase="deploy", rnd=1, left=2, turn=1)
    s = s.apply("assassin torii kamiwashi 2")
    assert [c for c, _, _ in s.stacks[0][0]] == [f"{K}-lord", f"{H}-assassin"]
    assert s.card_strength(0, s.stacks[0][0], 0) == 3
    s = position([("torii", 0, 1), ("port", 0, 1)],
                 {"torii": ([f"{K}-lord"], []), "port": ([f"{K}-brute"], [])}, hands=hands2(), **DEPLOY)
    s = play(s, "deploy general port", "move port 1 torii")
    assert [c for c, _, _ in s.stacks[0][0]] == [f"{K}-lord", f"{K}-brute"]
    assert s.card_strength(0, s.stacks[0][0], 0) == 3
