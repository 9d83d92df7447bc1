"""The difficulty levels of every game: legal, blind to what their seat may not see, within
their budget (counted, never timed), and never conceding a battle that is not lost.
Strength is measured in benchmarks/ (strength.py), not here."""

from __future__ import annotations

import json

import pytest

from kassen.ai.evaluate_games import evaluate_clans, evaluate_hv, expected_hits
from kassen.ai.lookahead import HalvingPlayer, play_until
from kassen.ai.players import GAME_LEVELS, LevelPlayer, Player, level_player, make_player
from kassen.ai.search import GreedyPlayer, MCTSPlayer
from kassen.engine.rng import Rng
from kassen.rulesets.registry import load_game
from tests.ai.helpers import play_legal

LEVELS = ("easy", "normal", "hard")


def _cheap(player: Player) -> Player:
    """The same player with a small budget: legality and fairness do not depend on it."""
    if isinstance(player, HalvingPlayer):
        player.playouts = min(player.playouts, 12)
        player.end_playouts = min(player.end_playouts, 12)
    if isinstance(player, MCTSPlayer):
        player.iterations = min(player.iterations, 15)
    if isinstance(player, GreedyPlayer):
        player.samples = 1
    return player


def _advance(game_id: str, scenario: str | None, seed: int, plies: int):
    s = load_game(game_id).new_state(scenario, seed)
    rng = Rng(seed)
    for _ in range(plies):
        if s.is_terminal():
            break
        s = s.apply(rng.choice([a for a in s.legal_actions() if a != "concede"] or s.legal_actions()))
    return s


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("game_id", "scenario", "decisions"), [
    ("clans", "2-players", 40), ("clans", "3-players-experienced", 35), ("honourable-victory", None, 50),
    ("kensei", None, 15),
])
def test_every_level_of_every_game_plays_only_legal_actions(level, game_id, scenario, decisions):
    for seed in (1, 2):
        s = load_game(game_id).new_state(scenario, seed)
        players = [_cheap(level_player(level, game_id, seed * 10 + k)) for k in range(len(s.seat_names()))]
        play_legal(s, players, decisions)


def test_levels_of_the_other_games_are_the_halving_player_with_growing_budgets():
    for game_id, levels in GAME_LEVELS.items():
        players = [level_player(lv, game_id, 1) for lv in LEVELS]
        assert all(isinstance(p, HalvingPlayer) for p in players)
        budgets = [p.playouts for p in players if isinstance(p, HalvingPlayer)]
        assert budgets == [levels[lv]["playouts"] for lv in LEVELS]
        assert budgets[0] < budgets[1] < budgets[2]
    assert make_player("normal", 1).name == "normal" and isinstance(make_player("hard", 1), LevelPlayer)


def _clans_twin(s, seat: int):
    """The same clan game for ``seat``, but the opponent's face-down card and a card of its hand
    swapped, and other dice: what ``seat`` sees is unchanged."""
    t = s.clone()
    t.events = s.events
    opp = 1 - seat
    for i in range(len(t.stacks)):
        side = t.side_of(i, opp)
        for k, (cid, up, known) in enumerate(t.stacks[i][side]):
            if up or known >> seat & 1:
                continue
            swap = [c for c in t.hands[opp] if c != cid and _secret(c)]
            if swap and _secret(cid):
                j = t.hands[opp].index(swap[0])
                t.stacks[i][side][k] = (swap[0], up, known)
                t.hands[opp][j] = cid
                t.hands[opp].sort()
                t.rng = Rng(987654321)
                assert json.dumps(t.observation(seat), sort_keys=True) == json.dumps(s.observation(seat), sort_keys=True)
                assert t.to_json() != s.to_json()
                return t
    return None


def _secret(cid: str) -> bool:
    from kassen.rulesets.clans.state import is_secret

    return is_secret(cid)


def _clans_position_with_a_secret():
    for seed in range(1, 30):
        s = _advance("clans", "2-players", seed, 7)
        if s.is_terminal() or len(s.legal_actions()) < 2:
            continue
        seat = s.to_move()
        t = _clans_twin(s, seat)
        if t is not None:
            return s, t, seat
    raise AssertionError("no clan position with a face-down card of the opponent")


@pytest.mark.parametrize("level", LEVELS)
def test_clans_levels_do_not_see_the_opponents_cards_or_the_dice(level):
    s, t, seat = _clans_position_with_a_secret()
    a = _cheap(level_player(level, "clans", 5)).choose(s, seat)
    b = _cheap(level_player(level, "clans", 5)).choose(t, seat)
    assert a == b


def _hv_position(step: str, need_declared: bool = False):
    for seed in range(1, 40):
        s = load_game("honourable-victory").new_state(None, seed)
        rng = Rng(seed)
        for _ in range(400):
            if s.is_terminal():
                break
            p = s.pend
            if (p.get("step") == step and len(s.legal_actions()) > 1
                    and (not need_declared or s.fire_decl[1 - p["seat"]])):
                return s
            s = s.apply(rng.choice([a for a in s.legal_actions() if a != "concede"]))
    raise AssertionError(f"no {step} decision reached")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("step", ["move", "fire"])
def test_honourable_victory_levels_do_not_see_the_dice_or_the_hidden_declarations(level, step):
    s = _hv_position(step, need_declared=step == "fire")
    seat = s.to_move()
    t = s.clone()
    t.events = s.events
    t.rng = Rng(424242)  # other dice to come
    if step == "fire":  # the other side's declarations, still hidden, are different
        other = 1 - seat
        t.fire_decl[other] = [] if s.fire_decl[other] else t.fire_decl[other]
    assert json.dumps(t.observation(seat), sort_keys=True) == json.dumps(s.observation(seat), sort_keys=True)
    assert t.to_json() != s.to_json()
    assert _cheap(level_player(level, "honourable-victory", 3)).choose(s, seat) == \
        _cheap(level_player(level, "honourable-victory", 3)).choose(t, seat)


@pytest.mark.parametrize("budget", [5, 12, 37, 100])
@pytest.mark.parametrize("game_id", ["clans", "honourable-victory"])
def test_halving_spends_at_most_its_playouts_and_most_of_them(game_id, budget):
    s = _advance(game_id, None, 3, 5)
    while len(s.legal_actions()) < 3:
        s = s.apply(s.legal_actions()[0])
    p = HalvingPlayer(1, evaluation=evaluate_clans if game_id == "clans" else evaluate_hv, playouts=budget, depth=4)
    p.choose(s, s.to_move())
    n = len(s.legal_actions())
    assert 0 < p.last_work <= budget
    assert p.last_work >= budget // 2 or p.last_work >= n
    before = p.total_work
    p.choose(s, s.to_move())
    assert p.total_work == before + p.last_work


@pytest.mark.parametrize("game_id", ["clans", "honourable-victory"])
def test_the_levels_budgets_are_counted_per_decision(game_id):
    s = _advance(game_id, None, 4, 6)
    while len(s.legal_actions()) < 3:
        s = s.apply(s.legal_actions()[0])
    for level in ("easy", "normal"):
        p = level_player(level, game_id, 2)
        assert isinstance(p, HalvingPlayer)
        p.choose(s, s.to_move())
        assert 0 < p.last_work <= p.playouts


def test_playouts_until_mine_stop_when_the_seat_decides_again():
    s = _hv_position("move")
    seat = s.to_move()
    after = s.apply("end")  # the other side's movement phase follows
    end = play_until(after, seat, Rng(1), 500)
    assert end.is_terminal() or end.to_move() == seat
    assert play_until(s, seat, Rng(1), 500) is s


def _losing_hv(seat: int):
    """A battle ``seat`` is losing badly but has not lost: most of its units routed or reduced."""
    s = _hv_position("move")
    while s.to_move() != seat or s.pend.get("step") != "move":
        s = s.apply([a for a in s.legal_actions() if a != "concede"][0])
    s = s.clone()
    mine = [u for u in s.units.values() if u.side == seat and u.status == "table"]
    for u in mine[1:]:
        u.stands = 2
        u.hits = 3
    s._legal = None
    assert s.result() is None and "concede" in s.legal_actions()
    return s


@pytest.mark.parametrize("name", ["easy", "normal", "hard", "greedy", "mcts"])
def test_honourable_victory_ais_never_concede_a_battle_that_is_not_lost(name):
    s = _losing_hv(0)
    assert evaluate_hv(s, 0) < 0
    player = _cheap(make_player(name, 1))
    if isinstance(player, LevelPlayer):
        player.inner = _cheap(level_player(name, "honourable-victory", 1))
        player.game_id = "honourable-victory"
    assert player.choose(s, 0) != "concede"


def test_hv_evaluation_counts_stands_hits_and_the_coming_combat():
    s = _hv_position("move")
    base = evaluate_hv(s, 0)
    assert evaluate_hv(s, 1) == pytest.approx(-base, abs=1e-9)
    worse = s.clone()
    for u in worse.units.values():
        if u.side == 0:
            u.hits += 2
    assert evaluate_hv(worse, 0) < base
    assert all(v >= 0 for v in expected_hits(s).values())


def test_clans_evaluation_is_the_outcome_at_the_end():
    s = load_game("clans").new_state("2-players", 1)
    rng = Rng(1)
    while not s.is_terminal():
        s = s.apply(rng.choice(s.legal_actions()))
    res = s.result()
    assert res is not None
    if res.winner is not None:
        assert evaluate_clans(s, res.winner) > 0.5 and evaluate_clans(s, 1 - res.winner) < -0.5
    else:
        assert abs(evaluate_clans(s, 0)) < 0.3
