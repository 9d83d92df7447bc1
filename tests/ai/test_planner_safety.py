"""What every C&C level knows since issue 33, by forced positions: the Leader Casualty Check a
Leader risks with a unit the enemy can hit (and in a battle back), a lone Leader in an enemy
unit's reach, a unit alone deep in enemy reach (cavalry alone above all), and the immediate-win
check (a plan that wins in this battle phase with a high chance is never passed over).

Rule "Leader Casualty Check" (seed 000, lines 950-976): with a unit that loses blocks, close
combat one die and a sword kills the Leader, ranged combat two dice and two swords; the unit
eliminated, one die for the Leader left alone. "Combat Against a Leader Alone in a Hex" (line
985): the attacker's dice, any sword kills him."""

from __future__ import annotations

import pytest

from kassen.ai.evaluate import SWORD, close_exchange, evaluate, features, load_weights, win_chance
from kassen.ai.planner import TurnPlanner
from kassen.rulesets.cc_samurai.combat import dice_count, marginals
from kassen.rulesets.cc_samurai.state import CCState
from tests.rulesets.cc_samurai.helpers import GAME, act, position

RED, BLUE = 0, 1
W = load_weights()
FROZEN = load_weights("benchmarks/weights_cc_normal_e5b1536.json")
UNITS = GAME.tables.units


def _hit(n: int, att: str, tgt: str, kind: str, blocks: int = 1) -> float:
    """The chance that ``n`` dice of ``att`` score at least ``blocks`` hits on ``tgt``."""
    m = marginals(n, UNITS[att], UNITS[tgt], kind)
    return m.p_at_least(m.hits, blocks)


def _without(*keys: str) -> dict[str, object]:
    w = load_weights()
    for k in keys:
        w.pop(k, None)
    return w


def _red_about_to_be_attacked(pieces: str) -> CCState:
    """Blue's turn begins: Red's pieces are the ones exposed (counted in full)."""
    return position(pieces, active="blue")


# ------------------------------------------------------------------ Leader Casualty Check
def test_leader_casualty_check_close_combat_risk_of_a_leader_with_a_unit_in_contact():
    worth = W["banner"] + W["leader_attached"]
    s = _red_about_to_be_attacked("""
        [red]
        pieces = [{ at = "L3", unit = "AB", blocks = 3, leader = "mounted" }]
        [blue]
        pieces = [{ at = "K4", unit = "SSp" }]
    """)
    # Blue's 4 dice hit the bowmen at least once, then one die kills the Leader on a sword (also
    # when the unit is eliminated: one die for the Leader left alone)
    expected = -_hit(4, "SSp", "AB", "close") * SWORD * worth
    assert features(s, RED, W)["leader_risk"] == pytest.approx(expected)
    assert features(s, BLUE, W)["leader_risk"] == pytest.approx(-expected)
    # what the evaluation loses by it
    assert evaluate(s, RED, W) - evaluate(s, RED, _without("leader_risk")) == pytest.approx(W["leader_risk"] * expected)
    # out of reach (three hexes from Samurai spearmen that move 1 and battle): no risk
    far = _red_about_to_be_attacked("""
        [red]
        pieces = [{ at = "L3", unit = "AB", blocks = 3, leader = "mounted" }]
        [blue]
        pieces = [{ at = "K6", unit = "SSp" }]
    """)
    assert features(far, RED, W)["leader_risk"] == 0.0


def test_leader_casualty_check_ranged_combat_needs_two_swords_unless_the_unit_is_eliminated():
    worth = W["banner"] + W["leader_attached"]
    # Samurai bowmen three hexes away: 3 dice at range (0.8: the chance a shot comes, as threats count it)
    s = _red_about_to_be_attacked("""
        [red]
        pieces = [{ at = "L3", unit = "AB", blocks = 3, leader = "foot" }]
        [blue]
        pieces = [{ at = "K6", unit = "SB" }]
    """)
    hit, elim = _hit(3, "SB", "AB", "ranged"), _hit(3, "SB", "AB", "ranged", 3)
    death = (hit - elim) * SWORD * SWORD + elim * SWORD
    assert features(s, RED, W)["leader_risk"] == pytest.approx(-0.8 * death * worth)


def test_combat_against_a_leader_alone_in_a_hex_any_sword_kills_him():
    worth = W["banner"] + W["leader_lone"]
    s = _red_about_to_be_attacked("""
        [red]
        pieces = [{ at = "L3", leader = "mounted" }, { at = "B1", unit = "ASp" }]
        [blue]
        pieces = [{ at = "K4", unit = "ASp" }]
    """)
    assert features(s, RED, W)["lone_leader_risk"] == pytest.approx(-(1 - (1 - SWORD) ** 3) * worth)
    assert features(s, RED, W)["leader_risk"] == 0.0
    # the same Leader with his own turn to come counts ``exposed_later`` of it (he may get away)
    mine = position("""
        [red]
        pieces = [{ at = "L3", leader = "mounted" }, { at = "B1", unit = "ASp" }]
        [blue]
        pieces = [{ at = "K4", unit = "ASp" }]
    """)
    assert features(mine, RED, W)["lone_leader_risk"] == pytest.approx(
        -W["exposed_later"] * (1 - (1 - SWORD) ** 3) * worth)


def test_a_close_combat_risks_the_attackers_leader_in_the_battle_back():
    s = act(position("""
        [red]
        pieces = [{ at = "L3", unit = "SSp", leader = "foot" }]
        [blue]
        pieces = [{ at = "K4", unit = "SSp" }]
    """), "play order-two-center", "order L3", "done", "end-move")
    assert "attack L3 K4" in s.legal_actions()
    h, t = s.b.parse("L3"), s.b.parse("K4")
    ut = UNITS["SSp"]
    args = (s, ut, 4, s.ter(h), h, t, False)
    risky = close_exchange(*args, W)
    safe = close_exchange(*args, _without("leader_risk"))
    # 4 dice on 4 blocks: expected 4/3 hits, the target battles back with 3 blocks (3 dice) unless
    # eliminated; the Leader dies on a sword after a hit
    exp = 4 * 2 / 6
    left = 4 - int(exp + 0.5)
    survive = 1 - _hit(4, "SSp", "SSp", "close", 4)
    bb = dice_count(ut, "close", 1, False, left, s.ter(t), s.ter(h), 0)
    loss = survive * _hit(bb, "SSp", "SSp", "close") * SWORD * (W["banner"] + W["leader_attached"])
    assert safe - risky == pytest.approx(W["leader_risk"] * loss)


#: Red's 3-block Ashigaru bowmen with a mounted Leader, three hexes from 2-block Ashigaru spearmen
#: (in range of the bows), Samurai spearmen on both sides of them
BOWMEN = """
    [red]
    pieces = [{ at = "L3", unit = "AB", blocks = 3, leader = "mounted" }, { at = "F1", unit = "ASp" }]
    [blue]
    pieces = [{ at = "K6", unit = "ASp", blocks = 2 }, { at = "O6", unit = "SSp" }, { at = "H7", unit = "SSp" }]
"""


def _planned_moves(s: CCState, w: dict[str, object]) -> list[str]:
    p = TurnPlanner(1, weights=w, battle_samples=4)
    steps, _ = p._orders_and_moves(s, RED, {})
    return [a for _, a in steps]


def test_the_planner_does_not_walk_a_leaders_bowmen_into_contact():
    s = act(position(BOWMEN), "play order-two-center")
    # today's weights: the bowmen stay and shoot; the frozen ones (e5b1536) walked them next to
    # the spearmen (the close combat and its battle back, the Leader's casualty check, uncounted)
    assert _planned_moves(s, W) == ["order L3", "done", "end-move"]
    assert _planned_moves(s, FROZEN) == ["order L3", "done", "move L3 J5"]
    moved = act(s, "order L3", "done", "move L3 J5")
    assert features(moved, RED, W)["leader_risk"] < features(act(s, "order L3", "done", "end-move"), RED, W)["leader_risk"]


# ------------------------------------------------------------------ overextension
def test_a_unit_alone_counts_each_attacker_past_the_first():
    body = """
        [red]
        pieces = [{{ at = "L5", unit = "{unit}" }}{friend}]
        [blue]
        pieces = [{{ at = "K6", unit = "ASp" }}, {{ at = "M6", unit = "ASp" }}, {{ at = "B9", unit = "ASp" }}]
    """
    cav = _red_about_to_be_attacked(body.format(unit="SSpC", friend=""))
    foot = _red_about_to_be_attacked(body.format(unit="SSp", friend=""))
    # two Ashigaru beside it: one attacker past the first (cavalry: 1 + overextension_cavalry times)
    assert features(foot, RED, W)["overextension"] == pytest.approx(-1.0)
    assert features(cav, RED, W)["overextension"] == pytest.approx(-(1 + W["overextension_cavalry"]))
    assert evaluate(cav, RED, W) - evaluate(cav, RED, _without("overextension")) == \
        pytest.approx(-W["overextension"] * (1 + W["overextension_cavalry"]))
    # a friend beside it: not alone
    backed = _red_about_to_be_attacked(body.format(unit="SSpC", friend=', { at = "K4", unit = "ASp" }'))
    assert features(backed, RED, W)["overextension"] == 0.0


#: Red's 2-block cavalry could charge two hexes deep, between Blue's Samurai spearmen
CAVALRY = """
    [red]
    pieces = [{ at = "L3", unit = "SSpC", blocks = 2 }, { at = "F1", unit = "ASp" }]
    [blue]
    pieces = [{ at = "L7", unit = "ASp", blocks = 1 }, { at = "O6", unit = "SSp" }, { at = "H7", unit = "SSp" },
              { at = "J7", unit = "SSp" }, { at = "N7", unit = "SSp" }]
"""


def test_the_planner_does_not_charge_its_cavalry_alone_into_the_enemy_line():
    s = act(position(CAVALRY), "play order-two-center")
    deep = "move L3 N5"  # beside the spearmen at O6, one move from those at N7 and the unit at L7
    assert _planned_moves(s, _without("overextension")) == ["order L3", deep]
    plan = _planned_moves(s, W)
    assert plan[0] == "order L3" and plan[-1] != deep


# ------------------------------------------------------------------ banners handed over
def _vulnerable(value: float = 1.5, units: int = 2) -> dict[str, object]:
    w = load_weights()
    w["vulnerable"], w["vulnerable_units"] = value, units
    return w


#: three 1-block Red units, each beside full Blue Samurai spearmen (4 dice; Blue's third unit far)
WEAK = """
    [red]
    pieces = [{ at = "L3", unit = "AB", blocks = 1 }, { at = "D3", unit = "ASp", blocks = 1 },
              { at = "T3", unit = "SSp", blocks = 1 }]
    [blue]
    pieces = [{ at = "K4", unit = "SSp" }, { at = "C4", unit = "SSp" }, { at = "B9", unit = "SSp" }]
"""


def test_vulnerable_counts_the_likeliest_eliminations_next_turn():
    s = _red_about_to_be_attacked(WEAK)
    w = _vulnerable(units=2)
    # the bowmen at L3 and the spearmen at D3 each face 4 dice; T3 has no enemy in reach
    p_ab, p_asp = _hit(4, "SSp", "AB", "close"), _hit(4, "SSp", "ASp", "close")
    assert features(s, RED, w)["vulnerable"] == pytest.approx(-(p_ab + p_asp))
    assert features(s, BLUE, w)["vulnerable"] == pytest.approx(p_ab + p_asp)
    assert evaluate(s, RED, w) - evaluate(s, RED, W) == pytest.approx(-1.5 * (p_ab + p_asp))
    # only the likeliest ``vulnerable_units`` count (the enemy orders a few units a turn)
    assert features(s, RED, _vulnerable(units=1))["vulnerable"] == pytest.approx(-max(p_ab, p_asp))
    # the side that moves next can still save them: ``exposed_later`` of it
    mine = position(WEAK, active="red")
    assert features(mine, RED, w)["vulnerable"] == pytest.approx(-W["exposed_later"] * (p_ab + p_asp))
    # absent from the weights (today's levels): not computed
    assert features(s, RED, W)["vulnerable"] == 0.0


#: Blue's cavalry at N5 is beside Red's Samurai spearmen at P5, two hexes from Red's 1-block bowmen
PINNED = """
    [red]
    pieces = [{ at = "L3", unit = "AB", blocks = 1 }, { at = "P5", unit = "SSp" }]
    [blue]
    pieces = [{ at = "N5", unit = "SSpC" }, { at = "B9", unit = "SSp" }]
"""


def test_unit_movement_an_ordered_unit_may_move_in_any_direction_even_out_of_contact():
    """Phase 3, Unit Movement: "A unit that is ordered may move in any direction": nothing pins the
    cavalry beside Red's spearmen, it may leave them, move 1 and attack the bowmen (4 dice after a
    move). With ``contact_reach`` the risks count that attack at this chance; without it (the
    frozen weights) a unit in contact threatens only what it stands beside."""
    s = _red_about_to_be_attacked(PINNED)
    w = _vulnerable(1.0)
    pinned = features(s, RED, w)["vulnerable"]  # the spearmen beside the cavalry only
    assert -0.02 < pinned < 0.0  # four dice must hit all four blocks
    w["contact_reach"] = 0.3
    moved = dice_count(UNITS["SSpC"], "close", 1, True, 4, s.ter(s.b.parse("L3")), s.ter(s.b.parse("L3")), 0)
    assert moved == 4
    assert features(s, RED, w)["vulnerable"] - pinned == pytest.approx(-0.3 * _hit(moved, "SSpC", "AB", "close"))
    # normal plans and judges with it, at the chance of a unit one move away
    for name in ("weights_cc_normal.json", "weights_cc_normal_judge.json"):
        shipped = load_weights(f"src/kassen/ai/{name}")
        assert shipped["contact_reach"] == shipped["reach_discount"] == 0.3


def test_inspired_dice_a_leader_adds_his_die_to_the_attacks_counted():
    # Blue's Samurai spearmen beside Red's 1-block bowmen have a foot Leader with them: with
    # ``inspired_dice`` they roll 5 dice, not 4 ("Leader Inspired Close Combat": 1 Honor & Fortune)
    body = """
        [red]
        pieces = [{ at = "L3", unit = "AB", blocks = 1 }]
        [blue]
        pieces = [{ at = "K4", unit = "SSp", leader = "foot" }]
    """
    w = _vulnerable(units=1)
    wi = dict(w, inspired_dice=1)
    s = position(body, active="blue")
    assert features(s, RED, w)["vulnerable"] == pytest.approx(-_hit(4, "SSp", "AB", "close"))
    assert features(s, RED, wi)["vulnerable"] == pytest.approx(-_hit(5, "SSp", "AB", "close"))
    # without the Honor & Fortune the levels keep before they inspire, no die
    poor = position(body, active="blue", blue_honor=int(W["inspire_min_honor"]) - 1)
    assert features(poor, RED, wi)["vulnerable"] == pytest.approx(-_hit(4, "SSp", "AB", "close"))
    # and the battle back an attack on them risks counts the die too
    red = position(body, active="red")
    at, into = red.b.parse("L3"), red.b.parse("K4")
    assert close_exchange(red, UNITS["AB"], 1, red.ter(at), at, into, False, wi) < \
        close_exchange(red, UNITS["AB"], 1, red.ter(at), at, into, False, w)


# ------------------------------------------------------------------ the immediate-win check
#: Red needs 2 banners (3 to win, 1 held). On the right, its Samurai spearmen at S4 and W4 each
#: stand beside a 1-block Ashigaru unit: 4 dice, each hitting on a triangle or a sword, kill it
#: with 65/81 (80%), both with 64%. On the left three more spearmen face full Samurai units.
WIN = """
    [red]
    pieces = [{ at = "S4", unit = "SSp" }, { at = "W4", unit = "SSp" }, { at = "C4", unit = "SSp" },
              { at = "E4", unit = "SSp" }, { at = "G4", unit = "SSp" }]
    [blue]
    pieces = [{ at = "T5", unit = "ASp", blocks = 1 }, { at = "X5", unit = "ASp", blocks = 1 },
              { at = "D5", unit = "SSp" }, { at = "F5", unit = "SSp" }, { at = "H5", unit = "SSp" },
              { at = "N9", unit = "SSp" }]
"""


def _win_position(victory: int = 3) -> CCState:
    s = position(WIN, red_hand=["order-three-left", "order-two-right", "order-two-center"], victory=victory)
    s.banners[RED] = 1
    return s


def test_win_chance_is_the_chance_the_ordered_attacks_take_the_banners_missing():
    kill = 65 / 81
    assert _hit(4, "SSp", "ASp", "close") == pytest.approx(kill)
    s = act(_win_position(), "play order-two-right", "order S4", "order W4", "end-move")
    assert win_chance(s, W) == pytest.approx(kill * kill)
    # one banner missing: either kill wins
    one = act(_win_position(2), "play order-two-right", "order S4", "order W4", "end-move")
    assert win_chance(one, W) == pytest.approx(1 - (1 - kill) ** 2)
    # one unit ordered: two banners cannot come from one attack
    alone = act(_win_position(), "play order-two-right", "order S4", "done", "end-move")
    assert win_chance(alone, W) == 0.0
    # not during the play decision (nothing ordered yet)
    assert win_chance(_win_position(), W) == 0.0


def test_win_chance_counts_each_target_once():
    s = act(position("""
        [red]
        pieces = [{ at = "S4", unit = "SSp" }, { at = "U4", unit = "SSp" }]
        [blue]
        pieces = [{ at = "T5", unit = "ASp", blocks = 1 }, { at = "N9", unit = "SSp" }]
    """, victory=3, red_hand=["order-two-right", "order-one-left"]), "play order-two-right", "order S4", "order U4", "end-move")
    s.banners[RED] = 1
    assert win_chance(s, W) == 0.0  # both can kill the same unit: one banner, not two
    s.banners[RED] = 2
    # one banner missing: the second unit attacks the unit the first one missed
    assert win_chance(s, W) == pytest.approx(1 - (16 / 81) ** 2)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_immediate_win_check_never_passes_over_a_turn_that_wins_now(seed):
    s = _win_position()
    normal = TurnPlanner(seed, battle_samples=8, card_rollouts=6, card_beam=3, reply=True, dragon_hold=0.25)
    assert normal.choose(s, RED) == "play order-two-right"
    assert [a for _, a in normal.plan] == ["order S4", "order W4", "end-move"] or \
        [a for _, a in normal.plan] == ["order W4", "order S4", "end-move"]
    assert "64%" in (normal.explanation or "")


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_immediate_win_check_every_level_plays_the_card_that_wins_now(level):
    """Each level as shipped (its own weights and settings; easy's noise never touches the card
    played) takes the 64% win: the planned orders are the two attackers, and whatever steps they
    take first (normal steps both forward, still beside their 1-block targets) the battle phase
    it plans into wins with the same chance."""
    from kassen.ai.players import level_player

    p = level_player(level, "cc-samurai", 4)
    assert isinstance(p, TurnPlanner) and float(p.w.get("win_check", 0.0)) > 0.0
    assert p.choose(_win_position(), RED) == "play order-two-right"
    plan = [a for _, a in p.plan]
    assert sorted(a for a in plan if a.startswith("order ")) == ["order S4", "order W4"]
    s = act(_win_position(), "play order-two-right", *plan)
    assert "end-battle" in s.legal_actions() and win_chance(s, W) == pytest.approx((65 / 81) ** 2)


def test_without_the_check_normal_passed_over_the_win():
    """The frozen normal (e5b1536) played another card on at least one of these seeds: the check
    is what makes the test above pass."""
    choices = []
    for seed in (1, 2, 3):
        frozen = TurnPlanner(seed, weights=FROZEN, battle_samples=8, card_rollouts=6, card_beam=3, reply=True)
        choices.append(frozen.choose(_win_position(), RED))
    assert any(c != "play order-two-right" for c in choices)


# ------------------------------------------------------------------ easy: weaker, never absurd
#: Red's lone mounted Leader, ordered alone, two hexes from two full Samurai units
LONE = """
    [red]
    pieces = [{ at = "L3", leader = "mounted" }, { at = "B1", unit = "ASp" }]
    [blue]
    pieces = [{ at = "K6", unit = "SSp" }, { at = "M6", unit = "SSp" }, { at = "V9", unit = "ASp" }]
"""


def test_easys_random_moves_never_walk_a_lone_leader_into_contact():
    from kassen.ai.players import PLANNER_LEVELS

    s = act(position(LONE), "play order-two-center", "order L3")
    b = s.b

    def into_contact(a: str) -> bool:
        if not a.startswith("move ") or a.endswith(" off"):
            return False
        return any(n in s.units and s.units[n].side == BLUE for n in b.neighbours(b.parse(a.split()[2])))

    assert sum(into_contact(a) for a in s.legal_actions()) == 5
    floor = PLANNER_LEVELS["easy"]["noise_floor"]
    # every decision a random one (noise 1): among the moves within the floor of the best, none
    # next to the enemy (any sword of their 4 dice kills him); without the floor, some are
    picks = [TurnPlanner(seed, battle_samples=2, noise=1.0, noise_floor=floor).choose(s, RED) for seed in range(1, 21)]
    assert not any(into_contact(a) for a in picks) and len(set(picks)) > 5
    wild = [TurnPlanner(seed, battle_samples=2, noise=1.0).choose(s, RED) for seed in range(1, 21)]
    assert any(into_contact(a) for a in wild)
