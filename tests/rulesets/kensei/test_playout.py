"""Random playouts: 1,000 seeded turns through the protocol with the contract's checks and
the turn sequence's invariants (sheet 003:37-96)."""

from __future__ import annotations

from kassen.rulesets.kensei.game import KenseiGame
from kassen.rulesets.kensei.state import TURNS, KenseiState
from kassen.testing.contract import ContractViolation, run_contract

GAME = KenseiGame()


class Counter:
    def __init__(self) -> None:
        self.turns = 0


def invariants(counter: Counter):
    def check(state: KenseiState, prev: KenseiState | None) -> None:
        d = state.d  # a new dict at every read: read once
        pd = None if prev is None else prev.d
        if pd is not None and d["turn"] > pd["turn"]:
            counter.turns += 1
        if d["turn"] > TURNS and d["phase"] != "over":
            raise ContractViolation("the battle went on after its last turn")
        for seat in (0, 1):
            for u in d["units"][seat]:
                p = state.profile(seat, u["id"])
                if not 0 <= u["left"] <= p.miniatures:
                    raise ContractViolation(f"{u['id']}: {u['left']} miniatures of {p.miniatures}")
                if u["left"] and not 0 <= u["wounds"] < p.wo + 2:
                    raise ContractViolation(f"{u['id']}: {u['wounds']} wound markers on a WO {p.wo} miniature")
                if u["left"] and not 0 <= u["stunned"] < p.title.stuns_per_wound:
                    raise ContractViolation(f"{u['id']}: {u['stunned']} Stunned markers were not swapped for a wound")
                if u["leader"] and p.leader is None:
                    raise ContractViolation(f"{u['id']} gained a leader")
                if prev is not None and pd is not None and pd["turn"] == d["turn"] and pd["phase"] != "turn-cleanup":
                    before = prev.unit(seat, u["id"])
                    if u["left"] > before["left"]:
                        raise ContractViolation(f"{u['id']} gained miniatures outside the maintenance phase")
                    if before["used"] and not u["used"]:
                        raise ContractViolation(f"{u['id']} lost its Used Unit marker within a turn")
        act = d["act"]
        if act is not None:
            if not all(0 <= n <= 2 for n in act["orders"]):
                raise ContractViolation(f"orders out of range: {act['orders']}")
            if prev is not None and pd is not None and pd["act"] is not None:
                for seat in (0, 1):
                    uid, was = act["active"][seat], pd["act"]["active"][seat]
                    if uid is not None and was is None and prev.unit(seat, uid)["used"]:
                        raise ContractViolation(f"{uid} was activated with a Used Unit marker")
        if d["phase"] == "duel" and any(u["used"] for us in d["units"] for u in us):
            raise ContractViolation("a Used Unit marker survived the maintenance phase")
        if state.is_terminal() and state.result() is None:
            raise ContractViolation("the battle ended without a result")

    return check


def test_random_playout_a_thousand_seeded_turns_with_invariants():
    counter = Counter()
    report = run_contract(GAME, None, games=200, seed=11, invariants=(invariants(counter),), full_checks_every=30)
    assert report.finished == 200
    assert counter.turns >= 1000, counter.turns  # some battles end early, when an army is in retreat
    assert set(report.winners) - {None} == {0, 1}


def test_random_playout_full_checks_after_every_action_each_scenario():
    counter = Counter()
    for scenario in GAME.scenarios():
        run_contract(GAME, scenario, games=2, seed=5, invariants=(invariants(counter),))
    run_contract(GAME, None, games=2, seed=6, invariants=(invariants(counter),))
    assert counter.turns >= 14
