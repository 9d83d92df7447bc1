"""Hidden information: observations, secrets, determinize, and the AI players."""

from __future__ import annotations

import json

import pytest

from kassen.ai.players import make_player
from kassen.engine.errors import FormatError, IllegalActionError
from kassen.engine.rng import Rng
from kassen.rulesets.clans.state import card_type, is_secret
from tests.rulesets.clans.helpers import GAME, H, K, Y, army, play, position


def midgame(scenario: str = "3-players-beginners", seed: int = 5, steps: int = 30):
    s = GAME.new_state(scenario, seed)
    rng = Rng(seed)
    for _ in range(steps):
        s = s.apply(rng.choice(s.legal_actions()))
    return s


def test_observation_hides_other_hands_and_face_down_cards_but_shows_counts():
    s = midgame()
    for seat in (0, 1, 2, None):
        text = json.dumps(s.observation(seat))
        for other in range(3):
            if other != seat:
                assert all(c not in text for c in s.hands[other])
        for i in range(len(s.tiles)):
            for side in (0, 1):
                for cid, up, known in s.stacks[i][side]:
                    visible = up or (seat is not None and known >> seat & 1)
                    assert (cid in text) == bool(visible)
    obs = s.observation(1)
    assert [c["card"] for c in obs["hand"]] == sorted(s.hands[1])
    assert obs["hand_sizes"] == {s.name(x): len(s.hands[x]) for x in range(3)}
    assert sum(side["count"] for bf in obs["board"] for side in bf["sides"]) == sum(
        len(st) for pair in s.stacks for st in pair)


def test_secrets_list_exactly_the_cards_a_seat_has_not_seen():
    s = midgame()
    for seat in (0, 1, 2):
        expected = {c for x in range(3) if x != seat for c in s.hands[x]}
        expected |= {e[0] for pair in s.stacks for st in pair for e in st if not e[1] and not e[2] >> seat & 1}
        expected |= {r[0] for r in s.removed if not r[1] >> seat & 1}
        assert s.secrets(seat) == expected


def test_everything_is_revealed_when_the_game_ends():
    """C25: the Assassin's victims too."""
    s = GAME.new_state("2-players", 8)
    rng = Rng(8)
    while not s.is_terminal():
        s = s.apply(rng.choice(s.legal_actions()))
    assert s.secrets(None) == set()
    assert all("card" in r for r in s.observation(None)["removed"])


def test_determinize_keeps_what_the_seat_has_seen_and_resamples_the_rest():
    s = position([("torii", 0, 1), ("port", 1, 2), ("bridge", 2, 0)],
                 {"torii": ([f"{K}-lord"], [f"{H}-samurai", f"{H}-archer", f"{H}-scout"]),
                  "port": ([f"{H}-brute"], [f"{Y}-peasant-1", f"{Y}-lord"])},
                 n=3, hands=[army(K), army(H), army(Y)], phase="deploy", rnd=3, left=2)
    s.stacks[0][1][1] = (f"{H}-archer", False, 0b011)  # Kamiwashi's Shugenja saw the Archer
    changed = 0
    for k in range(30):
        d = s.determinize(0, Rng(k))
        assert d.stacks[0][0] == s.stacks[0][0] and d.hands[0] == s.hands[0]  # own cards
        assert d.stacks[0][1][1] == s.stacks[0][1][1] and d.stacks[0][1][2] == s.stacks[0][1][2]  # seen, public
        for pair in d.stacks:
            for st in pair:
                for cid, up, _ in st:
                    assert up or is_secret(cid)
        for seat in (1, 2):  # every army still complete
            cards = d.hands[seat] + [e[0] for pair in d.stacks for st in pair for e in st
                                     if e[0].startswith(d.name(seat).lower())]
            assert sorted(cards) == sorted(army(d.name(seat)))
        changed += d.stacks[0][1][0] != s.stacks[0][1][0]
        assert d.to_move() == s.to_move() and d.legal_actions() == s.legal_actions()
    assert changed > 5


def test_determinize_moves_the_unseen_last_card_with_its_slot():
    """A face-down last card stays 'the card in that slot' for the cowardice rule."""
    s = position([("torii", 0, 1)], {"torii": ([f"{K}-brute"], [f"{H}-peasant-1", f"{H}-lord"])},
                 last=[None, f"{H}-lord"], hands=[[], army(H)], phase="deploy")
    for k in range(10):
        d = s.determinize(0, Rng(k))
        assert d.last_card[1] == d.stacks[0][1][1][0]


@pytest.mark.parametrize("player", ["random", "greedy", "mcts"])
def test_ai_players_choose_legal_actions_in_every_seat_count(player):
    for scenario in ("2-players", "3-players-experienced", "4-players-teams"):
        s = midgame(scenario, 3, 12)
        ai = make_player(player, 1)
        if player == "mcts":
            ai.iterations = 30  # type: ignore[attr-defined]
        assert ai.choose(s, s.to_move()) in s.legal_actions()


def test_ai_choice_does_not_depend_on_the_opponents_hidden_cards():
    s = GAME.new_state("2-players", 11)
    rng = Rng(11)
    while not (s.to_move() == 0 and s.phase == "deploy" and s.round >= 3):
        s = s.apply(rng.choice(s.legal_actions()))
    other = s.clone()
    other.events = s.events
    # swap one of Hondo's unseen face-down cards with a Secret card of another type in his hand
    hidden = [(i, side, k) for i in range(len(s.tiles)) for side in (0, 1)
              for k, e in enumerate(s.stacks[i][side]) if not e[1] and not e[2] & 1 and s.sides[i][side] == 1]
    i, side, k = hidden[0]
    cid, up, known = other.stacks[i][side][k]
    swap = next(c for c in other.hands[1] if is_secret(c) and card_type(c) != card_type(cid))
    other.stacks[i][side][k] = (swap, up, known)
    other.hands[1] = sorted([c for c in other.hands[1] if c != swap] + [cid])
    assert other.to_json() != s.to_json()
    assert other.observation(0) == s.observation(0) and other.legal_actions() == s.legal_actions()
    for name in ("greedy", "mcts"):
        a, b = make_player(name, 4), make_player(name, 4)
        if name == "mcts":
            a.iterations = b.iterations = 40  # type: ignore[attr-defined]
        assert a.choose(s, 0) == b.choose(other, 0)


def test_heuristic_is_in_range_and_favours_the_stronger_army():
    s = position([("bridge", 0, 1)], {"bridge": ([f"{K}-brute", f"{K}-samurai"], [f"{H}-scout"])}, phase="resolve")
    assert 0 < s.heuristic(0) <= 1 and -1 <= s.heuristic(1) < 0
    done = s.apply("resolve bridge")
    assert done.heuristic(0) == 1.0 and done.heuristic(1) == -1.0


def test_illegal_action_is_refused_naming_the_problem_and_the_state_is_unchanged():
    s = GAME.new_state("2-players", 1)
    before = json.dumps(s.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="cannot be deployed"):
        s.apply("deploy dragon bridge")
    with pytest.raises(IllegalActionError, match="not a legal action now"):
        s.apply("resolve torii")
    assert json.dumps(s.to_json(), sort_keys=True) == before


def test_apply_returns_a_new_state_and_leaves_the_old_one():
    s = GAME.new_state("2-players", 1)
    before = json.dumps(s.to_json(), sort_keys=True)
    after = s.apply(s.legal_actions()[0])
    assert after is not s and json.dumps(s.to_json(), sort_keys=True) == before


def test_state_round_trips_through_json_and_bad_json_is_a_format_error():
    s = midgame("4-players-teams", 2, 40)
    back = GAME.state_from_json(json.loads(json.dumps(s.to_json())))
    assert back.to_json() == s.to_json() and back.legal_actions() == s.legal_actions()
    with pytest.raises(FormatError):
        GAME.state_from_json({"phase": "deploy"})
    bad = s.to_json()
    bad["tiles"] = ["moat"] + bad["tiles"][1:]
    with pytest.raises(FormatError, match="moat"):
        GAME.state_from_json(bad)


def test_prompt_and_describe_action_speak_english():
    s = GAME.new_state("2-players", 1)
    assert s.prompt() == "Kamiwashi: deploy a card (round 1 of 7, card 1 of 2)"
    assert s.describe_action(f"deploy samurai {s.tiles[0]}").startswith("deploy the Samurai face down on the ")
    assert "removed" in s.describe_action(f"deploy-down scout {s.tiles[0]}")
    s = play(s, f"deploy samurai {s.tiles[0]}")
    assert s.prompt().endswith("card 2 of 2)")
