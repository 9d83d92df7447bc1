"""Combat Resolution and scoring (002:200-275), the rulebook's example and its Q&A."""

from __future__ import annotations

from tests.rulesets.clans.helpers import H, J, K, Y, outcome, play, position


def test_rulebook_example_hondo_archer_leaves_six_against_five_at_the_torii():
    """002:245-257: the Hondo Archer eliminates Kamiwashi's Samurai; Hondo's 6 beat
    Kamiwashi's 5 and Hondo conquers the Torii for 4 VP (default values of facts.md)."""
    s = position([("torii", 0, 1)],
                 {"torii": ([f"{K}-samurai", f"{K}-brute"], [f"{H}-archer", f"{H}-ashigaru", f"{H}-general"])})
    s = s.apply("resolve torii")
    o = outcome(s, "torii")
    assert o["totals"] == [5, 6] and o["winner"] == 1
    assert s.vp == [0, 4]
    texts = [e.text for e in s.events]
    assert any("Kamiwashi Samurai eliminated by an Archer" in t for t in texts)
    # had the Samurai acted first, the Ashigaru would be gone and Kamiwashi would win 9 to 4
    assert not any("Hondo Ashigaru" in t and "Samurai" in t for t in texts)


def test_higher_total_strength_conquers():
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-ashigaru"], [f"{H}-scout"])})
    assert outcome(s.apply("resolve torii"), "torii")["winner"] == 0


def test_equal_strength_goes_to_the_player_with_more_cards():
    """002:236-237."""
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-ashigaru"], [f"{H}-scout", f"{H}-shugenja"])})
    o = outcome(s.apply("resolve torii"), "torii")
    assert o["totals"] == [2, 2] and o["winner"] == 1


def test_equal_strength_and_equal_cards_no_one_conquers():
    """002:237-239."""
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-ashigaru"], [f"{H}-general"])})
    s = s.apply("resolve torii")
    assert outcome(s, "torii")["winner"] is None and s.vp == [0, 0]
    assert s.result() is not None and s.result().winner is None


def test_the_loser_withdraws_all_his_cards():
    """002:241-243, C23."""
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-brute"], [f"{H}-scout", f"{H}-peasant-1"])})
    s = s.apply("resolve torii")
    assert s.stacks[0][1] == [] and [c for c, _, _ in s.stacks[0][0]] == [f"{K}-brute"]
    assert sum(1 for r in s.removed if r[2] == "withdrawn") == 2


def test_qa_an_army_of_only_an_opponents_assassin_can_conquer():
    """Q&A 002:588-595."""
    s = position([("torii", 0, 1)], {"torii": ([f"{H}-assassin"], [f"{H}-scout"])})
    s = s.apply("resolve torii")
    assert outcome(s, "torii")["winner"] == 0 and s.vp == [4, 0]


def test_qa_a_lone_peasant_conquers_when_the_opponent_has_no_cards_there():
    """Q&A 002:597-607: both armies have 0 Strength; the tie goes to more cards."""
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-peasant-1"], [])})
    s = s.apply("resolve torii")
    assert outcome(s, "torii")["totals"] == [0, 0] and outcome(s, "torii")["winner"] == 0
    assert s.vp == [4 + 1, 0]
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-peasant-1"], [f"{H}-peasant-1"])})
    assert outcome(s.apply("resolve torii"), "torii")["winner"] is None


def test_battlefields_are_resolved_one_at_a_time_in_the_order_the_first_player_chooses():
    """002:207-210, C12."""
    s = position([("torii", 0, 1), ("port", 0, 1), ("palace", 0, 1)],
                 {"torii": ([f"{K}-brute"], []), "port": ([], [f"{H}-brute"]), "palace": ([f"{K}-scout"], [])})
    assert s.to_move() == 0 and s.legal_actions() == ["resolve torii", "resolve port", "resolve palace"]
    s = s.apply("resolve port")
    assert [o is not None and o.get("done") for o in s.outcome] == [False, True, False]
    assert s.to_move() == 0 and s.legal_actions() == ["resolve torii", "resolve palace"]
    s = s.apply("resolve palace")
    assert s.is_terminal()  # the last Battlefield needs no choice


def test_scoring_adds_tile_vp_peasant_and_lord_bonuses_and_cowardice():
    """002:258-271."""
    s = position([("bridge", 0, 1), ("port", 0, 1)],
                 {"bridge": ([f"{K}-lord", f"{K}-peasant-1", f"{K}-peasant-2"], [f"{H}-scout"]),
                  "port": ([f"{K}-scout"], [f"{H}-lord", f"{H}-brute"])},
                 last=[f"{K}-scout", f"{H}-lord"])
    s = play(s, "resolve bridge")
    # Kamiwashi: Bridge 6 + Peasant 1 + Lord 3; Hondo: Port 4 + Lord 3 - 5 for cowardice
    assert s.vp == [10, 2]
    assert s.result().winner == 0


def test_equal_victory_points_go_to_the_player_who_conquered_more_battlefields():
    """002:274-275, C19: 9 VP each; Hondo conquered two Battlefields to Kamiwashi's one."""
    s = position([("bridge", 0, 1), ("port", 0, 1), ("rice-field", 0, 1)],
                 {"bridge": ([f"{K}-lord", f"{K}-brute"], []), "port": ([], [f"{H}-scout"]),
                  "rice-field": ([], [f"{H}-peasant-1"])})
    s = play(s, "resolve bridge", "resolve port")
    assert s.vp == [6 + 3, 4 + 4 + 1]
    assert s.result().winner == 1 and s.result().scores == (0.0, 1.0)
    assert "Battlefields conquered" in s.result().reason


def test_equal_victory_points_and_battlefields_is_a_draw():
    """C19."""
    s = position([("bridge", 0, 1), ("golden-temple", 0, 1)],
                 {"bridge": ([f"{K}-brute"], []), "golden-temple": ([], [f"{H}-brute", f"{H}-ashigaru"])})
    s = s.apply("resolve bridge")
    assert s.vp == [6, 6]
    assert s.result().winner is None and s.result().scores == (0.5, 0.5)


def test_team_partners_both_win_on_their_summed_victory_points():
    """C6: Kamiwashi and Yasei (opposite) against Hondo and Jozu."""
    tiles = [("bridge", 0, 1), ("port", 1, 2), ("palace", 2, 3), ("torii", 3, 0)]
    cards = {"bridge": ([f"{K}-brute"], []), "port": ([], [f"{Y}-scout"]),
             "palace": ([], [f"{J}-brute", f"{J}-scout"]), "torii": ([], [])}
    s = position(tiles, cards, n=4, teams=True)
    s = play(s, "resolve bridge", "resolve port", "resolve palace")
    assert s.vp == [6, 0, 4, 6]  # the teams: 10 against 6
    res = s.result()
    assert res.scores == (1.0, 0.0, 1.0, 0.0) and res.winner == 0
    assert "Kamiwashi & Yasei" in res.reason
