"""What apply reuses from the parent state (movement searches, the terrain map, the unit
index) and what is memoised for the process (order slots) never changes a legal-action
list: a state rebuilt from its JSON, with every cache empty, lists the same actions."""

from kassen.ai.players import RandomPlayer
from kassen.rulesets.cc_samurai import battle, orders
from kassen.rulesets.cc_samurai.common import _FITS, _VECTORS
from kassen.rulesets.cc_samurai.state import TASK_HANDLERS
from kassen.rulesets.registry import load_game


def test_cached_legal_actions_equal_those_of_a_state_rebuilt_from_json():
    game = load_game("cc-samurai")
    checked = 0
    for scenario, seed in ((None, 3), ("sekigahara-1600", 4)):
        state = game.new_state(scenario, seed)
        players = [RandomPlayer(seed * 7919 + i) for i in range(2)]
        for _ in range(700):
            seat = state.to_move()
            if seat is None:
                break
            if state.stack[-1]["t"] in ("order", "move", "battle"):
                fresh = game.state_from_json(state.to_json())
                _FITS.clear()
                _VECTORS.clear()
                assert fresh.legal_actions() == state.legal_actions()
                checked += 1
            state = state.apply(players[seat].choose(state, seat))
    assert checked > 100


def test_the_task_machine_dispatches_each_kind_to_its_handlers():
    game = load_game("cc-samurai")
    state = game.new_state(None, 0)
    kind = state.stack[-1]["t"]
    legal, act, _auto = TASK_HANDLERS[kind]
    assert legal is not None and act is not None
    assert legal(state, state.stack[-1]) == state.legal_actions()


def _decisions(game, scenario, seed, n):
    """The states of one seeded random game, up to ``n`` decisions."""
    state = game.new_state(scenario, seed)
    players = [RandomPlayer(seed * 7919 + i) for i in range(2)]
    for _ in range(n):
        seat = state.to_move()
        if seat is None:
            return
        yield state
        state = state.apply(players[seat].choose(state, seat))


GAMES = (("cc-samurai", None, 1), ("cc-samurai", "sekigahara-1600", 2), ("cc-samurai", "nagashino-1575", 5),
         ("cc-samurai", None, 8), ("cc-samurai-zvezda", None, 3))


def test_order_eligibility_kept_per_card_play_equals_the_computation_from_scratch():
    checked = 0
    seen_modes = set()
    for game_id, scenario, seed in GAMES:
        game = load_game(game_id)
        for state in _decisions(game, scenario, seed, 1500):
            task = state.stack[-1]
            if task["t"] != "order":
                continue
            seat = task["seat"]
            scratch = orders._order_actions_scratch(state, seat)
            assert orders._order_actions(state, seat) == scratch
            assert state._oc is not None and state._oc.spec is state.ti["spec"]
            # a state rebuilt from JSON has no cache: it builds one and agrees too
            fresh = game.state_from_json(state.to_json())
            assert fresh._oc is None and orders._order_actions(fresh, seat) == scratch
            seen_modes.add(state.ti["spec"]["mode"])
            checked += 1
    assert checked > 300 and len(seen_modes) >= 2


def test_moves_kept_with_reused_searches_equal_those_of_a_fresh_state():
    """A movement search reused from the parent carries its ``move ...`` actions along
    (``Dests.acts``): they equal the actions of a state rebuilt from JSON, which searches anew."""
    checked = reused = 0
    for game_id, scenario, seed in GAMES:
        game = load_game(game_id)
        for state in _decisions(game, scenario, seed, 1500):
            if state.stack[-1]["t"] not in ("move", "battle"):
                continue
            reused += sum(1 for k, d in state._mv.items() if state._mv_prev.get(k) is d)
            fresh = game.state_from_json(state.to_json())
            assert fresh.legal_actions() == state.legal_actions()
            checked += 1
    assert checked > 300 and reused > 50


def _ranged_targets_by_scan(state, h):
    """Ranged targets the plain way: every hex within range, in board order."""
    u = state.units[h]
    ut = state.ut(u)
    if not ut.ranged or state.ter(h).cap_on("ranged", ut.cavalry) == 0 or orders.turn_effect(state, u) == "charge":
        return []
    if any(n in state.units and state.units[n].side != u.side for n in state.b.neighbours(h)):
        return []
    out = []
    for n in state.b.within(h, ut.max_range):
        d = state.b.distance(h, n)
        if d < 2 or d not in ut.ranged or not orders.enemy_at(state, n, u.side):
            continue
        if n in state.units and state.ut(state.units[n]).bodyguard:
            continue
        if state.ter(n).cap_into("ranged", ut.cavalry) != 0 and battle.line_of_sight(state, h, n):
            out.append(n)
    return out


def test_ranged_targets_from_the_enemy_pieces_equal_a_scan_of_every_hex_in_range():
    checked = found = 0
    for game_id, scenario, seed in GAMES:
        game = load_game(game_id)
        for state in _decisions(game, scenario, seed, 1500):
            if state.stack[-1]["t"] not in ("battle", "move"):
                continue
            for h, u in state.units.items():
                if state.ut(u).ranged:
                    got = state.ranged_targets(h)
                    assert got == _ranged_targets_by_scan(state, h)
                    checked += 1
                    found += len(got)
    assert checked > 1000 and found > 100
