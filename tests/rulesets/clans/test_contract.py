"""The random-playout contract: 1,000 seeded games for 2, 3 and 4 players and the teams,
with the game's invariants and the check that no observation holds another seat's secrets."""

from __future__ import annotations

import json

import pytest

from kassen.rulesets.clans.state import BRIDGE_LIMIT, ClansState, card_clan, clan_cards, is_secret
from kassen.testing.contract import ContractViolation, run_contract
from tests.rulesets.clans.helpers import GAME

ARMIES = [sorted(clan_cards(c)) for c in range(4)]


def invariants(state: ClansState, prev: ClansState | None) -> None:
    board = [e for pair in state.stacks for st in pair for e in st]
    where: list[list[str]] = [[] for _ in range(4)]
    for cid in [e[0] for e in board] + [r[0] for r in state.removed]:
        where[card_clan(cid)].append(cid)
    for seat, clan in enumerate(state.clans):
        places = state.hands[seat] + where[clan]
        if sorted(places) != ARMIES[clan]:
            raise ContractViolation(f"{state.name(seat)}'s 13 cards are not each in one place: {sorted(places)}")
        if len(state.hands[seat]) != 13 - state.deployed[seat]:
            raise ContractViolation("hand size and deployed cards disagree")
    for cid, up, known in board:
        if not up:
            owner = state.clans.index(card_clan(cid))
            if not is_secret(cid) or not known >> owner & 1:
                raise ContractViolation(f"face-down {cid} is a Regular card or unknown to its owner")
    for i, tile in enumerate(state.tiles):
        if tile == "bridge" and max(len(st) for st in state.stacks[i]) > BRIDGE_LIMIT:
            raise ContractViolation("more than 3 cards on a side of the Bridge")
    if state.phase in ("deploy", "ability") and any(d > 2 * state.round for d in state.deployed):
        raise ContractViolation("a player deployed more than two cards a round")
    if state.is_terminal():
        assert state.vp is not None and state.result() is not None
        if any(h for h in state.hands) or any(o is None or not o.get("done") for o in state.outcome):
            raise ContractViolation("the game ended with cards in hand or Battlefields unresolved")


def no_leaks(state: ClansState, prev: ClansState | None) -> None:
    """Between the contract's full checks: every third card played, one seat's observation
    (in turn, the spectator too) is searched for the cards that seat has not seen."""
    d = sum(state.deployed) + len(state.removed) + sum(1 for o in state.outcome if o)
    if d % 3:
        return
    n = len(state.seat_names())
    seat: int | None = (d // 3) % (n + 1)
    seat = None if seat == n else seat
    obs = json.dumps(state.observation(seat))
    for secret in state.secrets(seat):
        if secret in obs:
            raise ContractViolation(f"observation of seat {seat} leaks {secret!r}")


def test_contract_full_checks_after_every_action():
    for scenario in GAME.scenarios():
        report = run_contract(GAME, scenario, games=5, seed=3, invariants=(invariants,))
        assert report.games == report.finished == 5


SCENARIOS = ("2-players", "3-players-beginners", "4-players-beginners", "4-players-teams")


@pytest.mark.parametrize("chunk", range(4))
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_contract_one_thousand_seeded_games_for_each_number_of_players(scenario, chunk):
    report = run_contract(GAME, scenario, games=250, seed=2026, first_game=chunk * 250,
                          invariants=(invariants, no_leaks), full_checks_every=29)
    assert report.games == report.finished == 250
    n = 4 if scenario.startswith("4") else int(scenario[0])
    assert set(report.winners) <= {None, *range(n)}
    if scenario == "4-players-teams":
        assert set(report.winners) <= {None, 0, 1}  # the team's first seat is named


@pytest.mark.parametrize("scenario", ("3-players-experienced", "4-players-experienced"))
def test_contract_experienced_set_ups(scenario):
    report = run_contract(GAME, scenario, games=150, seed=7, invariants=(invariants,), full_checks_every=29)
    assert report.games == report.finished == 150


def test_contract_observations_carry_secrets_to_check():
    """The secret check is not vacuous: mid-game every seat has cards it must not see."""
    seen: list[int] = []

    def count(state) -> None:
        if state.phase == "deploy" and state.round == 4:
            seen.append(min(len(state.secrets(s)) for s in range(len(state.seat_names()))))

    run_contract(GAME, "3-players-beginners", games=3, seed=1, on_state=count)
    assert seen and min(seen) > 0
