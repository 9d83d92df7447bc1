"""The random-playout contract every ruleset must pass.

``run_contract(game, scenario, games=N, seed=S)`` plays N seeded random games
through the protocol and checks, after every action:

- the seat to move is offered a non-empty list of distinct legal actions, and the
  one chosen is accepted;
- an illegal action is refused with ``IllegalActionError``;
- any ruleset invariants passed in hold;

and every ``full_checks_every`` actions (default: every action) that

- the refused action and ``apply`` left the old state unchanged;
- the state round-trips through JSON exactly;
- no observation contains a secret of another seat (``State.secrets``);

and at the end of each game that replaying the action list from the saved record
reproduces the final state exactly.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from kassen.engine.errors import IllegalActionError
from kassen.engine.protocol import CHANCE, Game, State
from kassen.engine.record import GameRecord, replay
from kassen.engine.rng import Rng

Invariant = Callable[[State, State | None], None]
Policy = Callable[[State, list[str], Rng], str]


def uniform_policy(state: State, legal: list[str], rng: Rng) -> str:
    """Every legal action equally likely."""
    return rng.choice(legal)


@dataclass
class ContractReport:
    games: int = 0
    actions: int = 0
    finished: int = 0
    winners: dict[int | None, int] = field(default_factory=dict)


class ContractViolation(AssertionError):
    pass


def _canon(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def check_state(game: Game, state: State) -> None:
    """The per-state checks: round-trip, observations, secrets."""
    data = state.to_json()
    text = json.dumps(data, sort_keys=True)
    back = game.state_from_json(json.loads(text))
    if _canon(back) != text:
        raise ContractViolation("state does not round-trip through JSON")
    seats: list[int | None] = [*range(len(state.seat_names())), None]
    for seat in seats:
        obs = json.dumps(state.observation(seat), sort_keys=True)
        for secret in state.secrets(seat):
            if secret and secret in obs:
                raise ContractViolation(f"observation of seat {seat} leaks {secret!r}")


def run_contract(
    game: Game,
    scenario: str | None = None,
    games: int = 10,
    seed: int = 0,
    max_actions: int = 20000,
    invariants: tuple[Invariant, ...] = (),
    full_checks_every: int = 1,
    policy: Policy = uniform_policy,
    first_game: int = 0,
    on_state: Callable[[State], None] | None = None,
) -> ContractReport:
    """Play ``games`` random games; raise ``ContractViolation`` on the first broken rule."""
    report = ContractReport()
    chooser = Rng(seed ^ 0x5EED)
    for g in range(first_game, first_game + games):
        game_seed = seed * 1000003 + g
        state = game.new_state(scenario, game_seed)
        record = GameRecord(game.id, game.rules_version, scenario, game_seed)
        prev: State | None = None
        steps = 0
        while not state.is_terminal():
            if steps >= max_actions:
                raise ContractViolation(f"game {g} did not end within {max_actions} actions")
            for inv in invariants:
                inv(state, prev)
            full = steps % full_checks_every == 0
            if full:
                check_state(game, state)
            mover = state.to_move()
            if mover == CHANCE:
                outcomes = state.chance_outcomes()
                total = sum(p for _, p in outcomes)
                if abs(total - 1.0) > 1e-9:
                    raise ContractViolation(f"chance probabilities sum to {total}")
                legal = [a for a, _ in outcomes]
            else:
                legal = state.legal_actions()
            if not legal:
                raise ContractViolation(f"game {g}: seat {mover} to move but no legal action")
            if len(set(legal)) != len(legal):
                raise ContractViolation(f"game {g}: duplicate legal actions {legal}")
            before = _canon(state) if full else ""
            try:
                state.apply("@@not-an-action@@")
            except IllegalActionError:
                pass
            else:
                raise ContractViolation("an illegal action was accepted")
            if full and _canon(state) != before:
                raise ContractViolation("a refused action changed the state")
            action = policy(state, legal, chooser)
            if action not in legal:
                raise ContractViolation(f"policy chose {action!r}, which is not legal")
            prev, state = state, state.apply(action)
            if on_state is not None:
                on_state(state)
            if full and _canon(prev) != before:
                raise ContractViolation("apply() changed the state it was called on")
            record.actions.append(action)
            steps += 1
        for inv in invariants:
            inv(state, prev)
        check_state(game, state)
        replayed = replay(game, record)
        if _canon(replayed) != _canon(state):
            raise ContractViolation(f"game {g}: replaying the actions does not reproduce the final state")
        report.games += 1
        report.actions += steps
        res = state.result()
        if res is not None:
            report.finished += 1
            report.winners[res.winner] = report.winners.get(res.winner, 0) + 1
    return report
