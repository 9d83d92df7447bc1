"""Army Deployment (002:136-196): seven rounds, stacks, faces, the Lord deployed last."""

from __future__ import annotations

import pytest

from kassen.engine.errors import IllegalActionError
from kassen.engine.rng import Rng
from kassen.rulesets.clans.state import card_type
from tests.rulesets.clans.helpers import GAME, H, K, army, outcome, play, position


def test_deployment_is_seven_rounds_of_two_cards_a_turn_and_one_on_the_last():
    s = GAME.new_state("3-players-beginners", 4)
    rng = Rng(4)
    movers = []
    while s.phase in ("deploy", "ability"):
        if s.phase == "deploy":
            movers.append((s.round, s.to_move()))
        s = s.apply(rng.choice(s.legal_actions()))
    expected = [(r, seat) for r in range(1, 8) for seat in range(3) for _ in range(1 if r == 7 else 2)]
    assert movers == expected
    assert all(len(h) == 0 for h in s.hands) and s.deployed == [13, 13, 13]


def test_cards_go_only_on_your_side_of_your_battlefields():
    s = GAME.new_state("3-players-beginners", 1)
    mine = {t for t, side in zip(s.tiles, s.sides) if 0 in side}
    targets = {a.split()[2] for a in s.legal_actions() if a.startswith("deploy ")}
    assert targets == mine and len(mine) == 4
    other = next(t for t in s.tiles if t not in mine)
    with pytest.raises(IllegalActionError):
        s.apply(f"deploy samurai {other}")


def test_two_cards_may_go_on_one_or_two_battlefields():
    s = GAME.new_state("2-players", 1)
    a, b = s.tiles[0], s.tiles[1]
    same = play(s, f"deploy brute {a}", f"deploy samurai {a}")
    assert len(same.stacks[0][same.side_of(0, 0)]) == 2 and same.to_move() == 1
    split = play(s, f"deploy brute {a}", f"deploy samurai {b}")
    assert split.to_move() == 1


def test_cards_stack_in_deployment_order_and_everyone_sees_the_count():
    s = GAME.new_state("2-players", 1)
    t = s.tiles[0]
    s = play(s, f"deploy peasant {t}", f"deploy ashigaru {t}")
    side = s.side_of(0, 0)
    assert [card_type(c) for c, _, _ in s.stacks[0][side]] == ["peasant", "ashigaru"]
    pub = s.observation(1)["board"][0]["sides"][side]
    assert pub["count"] == 2 and pub["strength_shown"] == 2
    assert [c["pos"] for c in pub["cards"]] == [1, 2]


def test_secret_card_is_face_down_its_owner_sees_it_and_nobody_else():
    s = GAME.new_state("2-players", 1)
    t = s.tiles[0]
    s = s.apply(f"deploy samurai {t}")
    side = s.side_of(0, 0)
    assert s.stacks[0][side][0] == ("kamiwashi-samurai", False, 0b01)
    mine = s.observation(0)["board"][0]["sides"][side]["cards"][0]
    theirs = s.observation(1)["board"][0]["sides"][side]["cards"][0]
    assert mine["type"] == "samurai" and mine["up"] is False
    assert "type" not in theirs and "card" not in theirs and theirs["up"] is False
    assert "kamiwashi-samurai" in s.secrets(1) and "kamiwashi-samurai" not in s.secrets(0)
    assert not any(a.startswith("deploy-down samurai") for a in GAME.new_state("2-players", 1).legal_actions())


def test_regular_card_is_deployed_face_up_for_all_to_see():
    s = GAME.new_state("2-players", 1)
    s = s.apply(f"deploy ashigaru {s.tiles[0]}")
    card = s.observation(1)["board"][0]["sides"][s.side_of(0, 0)]["cards"][0]
    assert card["up"] and card["type"] == "ashigaru" and card["strength"] == 2


def test_regular_card_deployed_face_down_is_removed_and_its_ability_has_no_effect():
    """C7: the Regular card is removed at once; the Scout reveals nothing."""
    s = position([("torii", 0, 1)], {"torii": ([], [f"{H}-samurai"])}, phase="deploy", rnd=1, left=2,
                 hands=[army(K), army(H)])
    after = s.apply("deploy-down scout torii")
    assert after.stacks[0][0] == [] and after.stacks[0][1][0][1] is False
    assert ("kamiwashi-scout", 0b11, "face-down Regular card", 0) in after.removed
    assert after.phase == "deploy" and after.left == 1 and after.deployed[0] == 1
    assert "kamiwashi-scout" not in after.hands[0]


TWO = [("bridge", 0, 1), ("rice-field", 0, 1)]


def test_lord_deployed_last_costs_five_vp():
    """002:187-190, 270-271, C8."""
    s = position(TWO, {"bridge": ([f"{K}-brute"], [f"{H}-peasant-1"])},
                 phase="deploy", rnd=7, left=1, turn=0, hands=[[f"{K}-lord"], [f"{H}-ashigaru"]])
    s = play(s, "deploy lord rice-field", "deploy ashigaru rice-field", "resolve bridge")
    assert s.is_terminal()
    assert outcome(s, "rice-field")["winner"] is None  # Lord 2 against Ashigaru 2, one card each
    assert s.vp == [6 - 5, 0]
    assert any("Lord deployed last -5" in e.text for e in s.events)


def test_lord_deployed_before_the_last_card_costs_nothing():
    s = position(TWO, {"bridge": ([f"{K}-lord", f"{K}-brute"], [f"{H}-peasant-1"])},
                 phase="deploy", rnd=7, left=1, turn=0, hands=[[f"{K}-archer"], [f"{H}-ashigaru"]])
    s = play(s, "deploy archer rice-field", "deploy ashigaru rice-field", "resolve bridge")
    assert s.vp == [6 + 3, 0]


def test_lord_deployed_last_still_costs_five_vp_when_an_assassin_eliminates_him():
    """C8: the act of cowardice stands even if the Lord is eliminated afterwards; the
    Assassin in his place fights for Kamiwashi (002:334-337)."""
    s = position(TWO, {"bridge": ([f"{K}-brute"], [f"{H}-peasant-1"])},
                 phase="deploy", rnd=7, left=1, turn=0, hands=[[f"{K}-lord"], [f"{H}-assassin"]])
    s = play(s, "deploy lord rice-field", "assassin rice-field kamiwashi 1", "resolve bridge")
    assert s.is_terminal()
    assert outcome(s, "rice-field")["winner"] == 0 and not outcome(s, "rice-field")["lord"]
    assert s.vp == [6 + 4 - 5, 0]
