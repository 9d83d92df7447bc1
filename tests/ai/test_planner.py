"""The C&C Samurai turn planner and its evaluation: legal, reproducible, blind to hidden
information, and reachable by its level names (strength runs live in benchmarks/)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from kassen.ai.evaltree import PlanSearchPlayer
from kassen.ai.evaluate import evaluate, load_weights
from kassen.ai.planner import TurnPlanner
from kassen.ai.player import RandomPlayer
from kassen.ai.players import PLAYERS, LevelPlayer, Player, level_player, make_player
from kassen.ai.search import GreedyPlayer, MCTSPlayer
from kassen.engine.concession import Conceded
from kassen.engine.errors import KassenError
from kassen.rulesets.registry import load_game
from tests.ai.helpers import play_legal
from tests.ai.test_players import _mid_game_state, _with_other_hidden_information

GAME = load_game("cc-samurai")
WEIGHTS = load_weights()


def small(seed: int) -> TurnPlanner:
    return TurnPlanner(seed, weights=WEIGHTS, battle_samples=2, card_rollouts=2, card_beam=2)


def small_search(seed: int, iterations: int = 12) -> PlanSearchPlayer:
    """The plan search (kassen.ai.evaltree) over the small planner, 12 iterations a decision."""
    return PlanSearchPlayer(seed, iterations=iterations, weights=WEIGHTS,
                            planner={"battle_samples": 2, "card_rollouts": 2, "card_beam": 2})


def small_variants(seed: int) -> TurnPlanner:
    """The small planner judging two other plans of its best card too, on common luck."""
    return TurnPlanner(seed, weights=WEIGHTS, battle_samples=2, card_rollouts=2, card_beam=2, variants=2, crn=1)


# the whole-turn planners must pass the same checks: legal, reproducible, blind
PLANNERS: dict[str, Callable[[int], Player]] = {"planner": small, "variants": small_variants,
                                                "plansearch": small_search}


def _play(make: Callable[[int], Player], game_id: str, seed: int, decisions: int) -> list[str]:
    """``make``'s player (both seats) for ``decisions`` decisions; every action must be legal."""
    s = load_game(game_id).new_state(None, seed)
    return play_legal(s, [make(seed), make(seed + 1)], decisions)


@pytest.mark.parametrize("kind", PLANNERS)
@pytest.mark.parametrize("game_id", ["cc-samurai", "cc-samurai-zvezda"])
def test_planner_plays_only_legal_actions_and_fights(kind, game_id):
    actions = _play(PLANNERS[kind], game_id, 3, 150)
    assert any(a.startswith(("attack ", "fire ")) for a in actions)
    assert any(a.startswith("move ") for a in actions)


@pytest.mark.parametrize("kind", PLANNERS)
def test_planner_is_deterministic_for_a_seed(kind):
    assert _play(PLANNERS[kind], "cc-samurai", 5, 50) == _play(PLANNERS[kind], "cc-samurai", 5, 50)


def _state_at(decision: str, seed: int = 4, attacks: int = 0):
    """A position where the seat to move faces ``decision`` (a play or a battle decision), with at
    least ``attacks`` attacks among its choices."""
    s = _mid_game_state(seed, 40)
    p = [small(1), small(2)]
    for _ in range(3000):
        if s.is_terminal():
            break
        pending = s.pending_json() or {}
        legal = s.legal_actions()
        if (pending.get("decision") == decision and len(legal) > 1
                and sum(a.startswith(("attack ", "fire ")) for a in legal) >= attacks):
            return s
        seat = s.to_move()
        s = s.apply(p[seat].choose(s, seat))
    raise AssertionError(f"no {decision} decision reached")


@pytest.mark.parametrize("kind", PLANNERS)
@pytest.mark.parametrize("decision", ["play", "order", "move", "battle"])
def test_planner_never_reads_the_opponents_hand_the_decks_or_the_dice(kind, decision):
    s = _state_at(decision)
    seat = s.to_move()
    other = _with_other_hidden_information(s, seat)
    # the same observation and the same seed: hidden cards and the real dice cannot change the choice
    assert PLANNERS[kind](9).choose(s, seat) == PLANNERS[kind](9).choose(other, seat)


def test_evaluation_reads_no_hidden_information():
    s = _mid_game_state(6, 50)
    seat = 0
    other = _with_other_hidden_information(s, seat)
    assert evaluate(s, seat, WEIGHTS) == evaluate(other, seat, WEIGHTS)


def test_evaluation_prefers_more_blocks_and_banners():
    s = GAME.new_state(None, 1)
    base = evaluate(s, 0, WEIGHTS)
    hurt = s.clone()
    h, u = next((h, u) for h, u in hurt.units.items() if u.side == 1)
    hurt.units[h] = u._replace(blocks=u.blocks - 1)
    assert evaluate(hurt, 0, WEIGHTS) > base
    won = s.clone()
    won.banners[0] += 1
    assert evaluate(won, 0, WEIGHTS) > base
    assert evaluate(won, 1, WEIGHTS) < evaluate(s, 1, WEIGHTS)


def test_weights_are_data_loaded_explicitly(tmp_path):
    w = load_weights()
    assert w["banner"] > 0
    bad = tmp_path / "w.json"
    bad.write_text(json.dumps({"banner": 1.0}))
    with pytest.raises(ValueError, match="missing weights"):
        load_weights(bad)
    doubled = {k: v for k, v in w.items()}
    doubled["banner"] = 2 * w["banner"]
    good = tmp_path / "w2.json"
    good.write_text(json.dumps(doubled))
    assert load_weights(good)["banner"] == 2 * w["banner"]


WINNERS: dict[str, Callable[[], Player]] = {
    "greedy": lambda: GreedyPlayer(1, samples=4, depth=4),
    "planner": lambda: small(1),
    "plansearch": lambda: small_search(1, 60),
}


@pytest.mark.parametrize("kind", WINNERS)
def test_ai_takes_a_winning_attack(kind):
    """The last banner is one attack away: every searching AI takes it."""
    from tests.rulesets.cc_samurai.helpers import act, position

    s = position("""
        [red]
        pieces = [{ at = "L3", unit = "SSp" }, { at = "F3", unit = "ASp" }]
        [blue]
        pieces = [{ at = "M4", unit = "ASp", blocks = 1 }, { at = "V9", unit = "ASp" }]
    """, victory=1)
    s = act(s, "play order-three-center", "order L3", "end-move")
    assert WINNERS[kind]().choose(s, 0) == "attack L3 M4"


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_level_names_resolve_everywhere(level):
    from kassen.cli.tui import parse_players
    from kassen.web.service import AI_LEVELS

    assert level in PLAYERS and level in AI_LEVELS
    p = make_player(level, 1)
    assert isinstance(p, LevelPlayer) and p.name == level
    seats = parse_players(("Red", "Blue"), f"human,{level}", 1)
    assert seats[0] is None and isinstance(seats[1], LevelPlayer)
    assert isinstance(level_player(level, "cc-samurai", 1), TurnPlanner)
    assert isinstance(level_player(level, "cc-samurai-zvezda", 1), TurnPlanner)


def test_levels_map_to_existing_players_in_games_without_their_own():
    # An Honourable Victory! and the clan card game have their own (tests/ai/test_levels.py)
    assert isinstance(level_player("easy", "kensei", 1), GreedyPlayer)
    assert isinstance(level_player("normal", "kensei", 1), GreedyPlayer)
    assert isinstance(level_player("hard", "kensei", 1), MCTSPlayer)


def test_normal_is_the_default_opponent():
    import inspect

    from kassen.cli.main import default_players, play
    from kassen.web.app import NewGame

    assert NewGame().seats == ["human", "normal"]
    assert inspect.signature(play).parameters["players"].default is None  # then default_players(game)
    assert default_players("cc-samurai") == "human,normal"


def test_web_lobby_offers_the_levels_and_creates_a_game_against_normal_by_default(tmp_path):
    from fastapi.testclient import TestClient

    from kassen.web.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", allowed_hosts=("testserver",))
    with TestClient(app) as client:
        ids = [p["id"] for p in client.get("/api/catalog").json()["players"]]
        assert {"easy", "normal", "hard"} <= set(ids)
        r = client.post("/api/games", json={"ruleset": "cc-samurai"})
        assert r.status_code == 201, r.text
        gid = r.json()["game_id"]
        token = r.json()["seats"][0]["token"]
        v = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json()
        assert v["seats"][1]["kind"] == "normal"


def test_levels_budget_is_counted_not_timed(monkeypatch):
    """A level plays the same move whatever the clock says: its budget is samples and
    rollouts, so a busy machine does not make it weaker (or its games unrepeatable)."""
    import kassen.ai.planner as planner

    s = _state_at("play")
    seat = s.to_move()
    calm = level_player("normal", "cc-samurai", 11).choose(s, seat)
    ticks = iter(range(0, 10**9, 1000))  # every reading of the clock is 1,000 s after the last
    monkeypatch.setattr(planner.time, "monotonic", lambda: float(next(ticks)))
    rushed = level_player("normal", "cc-samurai", 11)
    assert rushed.choose(s, seat) == calm
    assert isinstance(rushed, TurnPlanner) and rushed.explanation is not None
    assert "6 sampled turns per card" in rushed.explanation


def test_plan_variants_are_judged_by_counted_rollouts_on_common_luck():
    """``variants`` adds other plans of the best card to the rollouts' candidates (each rollout
    counted), and with ``crn`` every candidate's rollout r plays on the same determinization and
    dice: the same plan judged twice on the same luck gets the same value."""
    s = _state_at("play")
    seat = s.to_move()
    p = TurnPlanner(3, weights=WEIGHTS, battle_samples=2, card_rollouts=3, card_beam=2, variants=2, crn=1)
    action = p.choose(s, seat)
    assert action in s.legal_actions()
    # 2 cards of the beam and up to 2 variants of the best card, 3 rollouts each
    assert p.rollouts_done in (6, 9, 12)
    # --explain names what the best plan was judged against: other plans too when variants were found
    assert ("plans of" in (p.explanation or "")) == (p.rollouts_done > 6)
    plan = p.plan_turn(s.determinize(seat, p.rng), seat, rollouts=0)
    before = p.rng.state
    first = p._rollout_turn(s, seat, plan, luck=42)
    assert p.rng.state == before  # the rollout drew from its own luck, not the player's generator
    assert p._rollout_turn(s, seat, plan, luck=42) == first


def test_battle_crn_judges_every_attack_on_the_same_determinizations_and_dice(monkeypatch):
    """``battle_crn``: sample i of every candidate attack starts from the same generator state
    (common random numbers), and the player's own generator moves by one draw a sample, however
    many attacks there are; without it every sample of every attack draws afresh."""
    from kassen.rulesets.cc_samurai.state import CCState

    s = _state_at("battle", attacks=2)
    seat = s.to_move()
    attacks = [a for a in s.legal_actions() if a.startswith(("attack ", "fire "))]
    starts: list[int] = []
    real = CCState.determinize

    def spy(self, seat, rng):
        starts.append(rng.state)
        return real(self, seat, rng)

    monkeypatch.setattr(CCState, "determinize", spy)
    for crn in (1, 0):
        starts.clear()
        p = TurnPlanner(5, weights=WEIGHTS, battle_samples=3, battle_crn=crn)
        before = p.rng.state
        action = p._choose_battle(s, seat, s.legal_actions())
        assert action in s.legal_actions()
        per_attack = [starts[3 * i: 3 * i + 3] for i in range(len(attacks))]
        if crn:
            assert all(run == per_attack[0] for run in per_attack) and len(set(per_attack[0])) == 3
            fresh = TurnPlanner(5, weights=WEIGHTS)
            for _ in range(3):
                fresh.rng.next64()
            assert p.rng.state == fresh.rng.state and p.rng.state != before
        else:
            assert len({x for run in per_attack for x in run}) == 3 * len(attacks)




@pytest.mark.parametrize("kind", [*PLANNERS, "random"])
def test_a_player_asked_on_a_finished_game_says_so(kind):
    """No legal action (the game is over): one error naming the player and the seat, from
    ``Player.legal_actions`` that every ``choose`` starts with."""
    s = Conceded(GAME.new_state(None, 3), 0)
    player = RandomPlayer(1) if kind == "random" else PLANNERS[kind](1)
    with pytest.raises(KassenError, match=rf"^{player.name}: seat 1 has no legal action \(is the game over\?\)$"):
        player.choose(s, 1)

def test_plan_turn_is_the_plan_the_planner_follows():
    """``plan_turn`` (what the plan search completes its turns with) is the plan ``choose`` plays:
    the same generator state gives the same card, then its orders and moves in turn."""
    s = _state_at("play")
    seat = s.to_move()
    p, q = small(6), small(6)
    plan = p.plan_turn(s.determinize(seat, p.rng), seat)
    assert plan[0].startswith("play ") and len(plan) > 1
    assert q.choose(s, seat) == plan[0]
    assert [a for _, a in q.plan] == plan[1:]

@pytest.mark.parametrize("decision", ["play", "order"])
def test_explanation_describes_the_turn_played_not_a_rollout(decision):
    """--explain shows the plan the planner follows: at the start of the turn the card it plays,
    and when it must plan again in the middle of a turn (here: a fresh planner at an order
    decision, as after a Dragon card changed the position) the new plan, which begins with the
    action it plays; never a turn it imagined inside a rollout."""
    s = _state_at(decision)
    seat = s.to_move()
    p = TurnPlanner(5, weights=WEIGHTS, battle_samples=2, card_rollouts=3, card_beam=2, reply=True)
    action = p.choose(s, seat)
    assert p.explanation is not None
    marker = "plan " if decision == "play" else "new plan "
    assert f"{marker}{action}" in p.explanation, p.explanation


def test_judge_weights_judge_the_outcomes_while_the_plans_keep_their_own(monkeypatch):
    """``judge_weights``: the end of every card rollout and the result of every candidate attack
    are evaluated with the judge's weights, the greedy orders and moves with the planner's own;
    without a judge both are the planner's weights."""
    import kassen.ai.planner as planner

    judge = {**WEIGHTS, "engage": 0.0}
    used: list[object] = []
    real = planner.evaluate

    def spy(s, seat, w):
        used.append(w)
        return real(s, seat, w)

    monkeypatch.setattr(planner, "evaluate", spy)
    s = _state_at("play")
    seat = s.to_move()
    p = TurnPlanner(5, weights=WEIGHTS, battle_samples=2, card_rollouts=2, card_beam=2, reply=True,
                    judge_weights=judge)
    det = s.determinize(seat, p.rng)
    s1 = planner.settle(det.apply(next(a for a in det.legal_actions() if a.startswith("play "))), seat, WEIGHTS, p.rng)
    used.clear()
    steps, _ = p._orders_and_moves(s1, seat, {})
    assert used and all(w is WEIGHTS for w in used)
    used.clear()
    p._rollout_turn(det, seat, [a for _, a in steps])
    assert used[-1] is judge
    b = _state_at("battle", attacks=2)
    attacks = [a for a in b.legal_actions() if a.startswith(("attack ", "fire "))]
    used.clear()
    p._choose_battle(b, b.to_move(), b.legal_actions())
    # each attack's 2 samples and ending the battle phase once, by the judge (reactions inside a
    # simulated combat, a retreat say, are the planner's own choices)
    assert sum(w is judge for w in used) == 2 * len(attacks) + 1
    assert TurnPlanner(5, weights=WEIGHTS).judge is WEIGHTS


def test_judge_weights_file_is_read_beside_the_shipped_weights():
    """``judge_weights_file`` names a weights file beside ``weights_cc.json`` for the judge;
    ``judge_weights`` given as well wins over it."""
    from kassen.ai.evaluate import WEIGHTS_FILE

    judge = load_weights(WEIGHTS_FILE.with_name("weights_cc_normal_judge.json"))
    p = TurnPlanner(5, weights=WEIGHTS, judge_weights_file="weights_cc_normal_judge.json")
    assert p.judge == judge and p.judge != p.w
    mine = {**WEIGHTS, "engage": 0.0}
    assert TurnPlanner(5, judge_weights=mine, judge_weights_file="weights_cc_normal_judge.json").judge is mine


def test_explanation_counts_the_sampled_turns_that_end_the_game(monkeypatch):
    """A won or lost game counts the evaluation's ``win`` blocks, so a plan whose sampled turns
    end the game has an estimate in the hundreds: the explanation says how many of them did, and
    how (each rollout's end is read from the game's result)."""
    from tests.ai.test_planner_safety import BLUE, RED, _win_position
    from tests.rulesets.cc_samurai.helpers import act

    # Red needs one banner; four swords kill the 1-block Ashigaru at T5: the game is over
    over = act(_win_position(2), "play order-two-right", "order S4", "order W4", "end-move", "attack S4 T5",
               dice="x x x x")
    assert over.is_terminal() and over.result().winner == RED
    p = TurnPlanner(5, weights=WEIGHTS)
    assert p._rollout(over, RED, []) == (WEIGHTS["win"], 0)
    assert p._rollout(over, BLUE, []) == (-WEIGHTS["win"], 1)
    value, end = p._rollout(_win_position(2), RED, [])
    assert value < WEIGHTS["win"] and end is None

    # two candidates, rollouts in rounds: the first (the chosen: every value ties, the greedy
    # best first) won, lost, then its games go on; the second lost three and drew one
    ends = iter([0, 1, 1, 1, None, 1, None, 2])

    def rollout(self, s, seat, steps):
        return 0.0, next(ends)

    monkeypatch.setattr(TurnPlanner, "_rollout", rollout)
    w = {k: v for k, v in WEIGHTS.items() if k != "win_check"}
    p = TurnPlanner(5, weights=w, battle_samples=2, card_rollouts=4, card_beam=2, reply=True)
    p.choose(_win_position(), RED)
    assert p.explanation is not None
    assert p.explanation.endswith("from 4 sampled turns per card, +0.0 over the next best of 3 cards). "
                                  "In 2 of these 4 the game is over: won 1, lost 1."), p.explanation
