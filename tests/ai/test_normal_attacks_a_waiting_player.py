"""An opponent that does not wait forever (issue 33): against a player who never comes forward
(every decision answered with done, pass, end-move or the first legal action), ``normal`` must go
and win. The fitted weights tried in issue 33 (``fff71d4``, reverted) won 63% of a series against
players who all come to fight, and took no banner here in 40 turns; the hand-set weights win 5-0
on turn 20."""

from kassen.ai.players import level_player
from kassen.rulesets.registry import load_game

WAIT = ("done", "end-move", "end-battle", "pass", "keep-dragons", "no-battle-back")


def test_normal_beats_a_player_who_only_waits_within_thirty_turns():
    state = load_game("cc-samurai").new_state(None, 1)
    normal = level_player("normal", "cc-samurai", 1)
    while not state.is_terminal() and state.observation(None)["turn"] <= 30:
        seat = state.to_move()
        legal = state.legal_actions()
        action = normal.choose(state, seat) if seat == 1 else next((a for a in legal if a in WAIT), legal[0])
        state = state.apply(action)
    result = state.result()
    assert result is not None and result.winner == 1 and result.reason == "banners", state.observation(None)["banners"]
