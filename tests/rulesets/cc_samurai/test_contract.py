"""The random-playout contract on the First Samurai Skirmish, with the game's invariants."""

from __future__ import annotations

import pytest

from kassen.engine.rng import Rng
from kassen.rulesets.cc_samurai import dragons
from kassen.rulesets.cc_samurai.state import POOL_TOTAL, CCState
from kassen.testing.contract import ContractViolation, run_contract
from tests.rulesets.cc_samurai.helpers import GAME

AGGRESSIVE = ("attack", "fire", "bonus", "advance", "battle-back")


def aggressive_policy(state, legal: list[str], rng: Rng) -> str:
    """Random, but fights when it can and mostly closes with the enemy, so that the
    thousand battles end in tens of turns instead of hundreds."""
    fights = [a for a in legal if a.startswith(AGGRESSIVE)]
    if fights and rng.randbelow(10) < 9:
        return rng.choice(fights)
    moves = [a for a in legal if a.startswith("move ")]
    if moves and rng.randbelow(10) < 8:
        closer = _closing_in(state, moves)
        return rng.choice(closer or moves)
    orders = [a for a in legal if a.startswith("order ")]
    if orders and rng.randbelow(10) < 9:
        return rng.choice(orders)
    return rng.choice(legal)


def _closing_in(state: CCState, moves: list[str]) -> list[str]:
    """The moves that end nearer the closest enemy unit than they start."""
    side = state.to_move()
    enemies = [h for h, u in state.units.items() if u.side != side]
    if not enemies:
        return []
    b = state.b
    parse, distance = b.parse, b.distance
    nearest: dict[str, int] = {}

    def near(name: str) -> int:
        d = nearest.get(name)
        if d is None:
            h = parse(name)
            d = nearest[name] = min(distance(h, e) for e in enemies)
        return d

    out = []
    for a in moves:
        parts = a.split()
        if parts[-1] != "off" and near(parts[-1]) < near(parts[1]):
            out.append(a)
    return out


#: game -> (Command cards, Dragon cards) in play: the decks' sizes the card counts must keep
_DECKS: dict[int, tuple[int, int]] = {}


def _deck_sizes(state: CCState) -> tuple[int, int]:
    sizes = _DECKS.get(id(state.game))
    if sizes is None:
        t = state.game.tables
        sizes = _DECKS[id(state.game)] = (
            sum(1 for slug in t.command_ids.values() if state.game.card_playable(slug)),
            sum(1 for slug in t.dragon_ids.values() if dragons.implemented(slug)))
    return sizes


def invariants(state: CCState, prev: CCState | None) -> None:
    # Honor & Fortune: 30 tokens across the pool and the reserves
    if state.pool + sum(state.honor) + state.dragon_tokens != POOL_TOTAL:
        raise ContractViolation(
            f"Honor & Fortune not conserved: pool {state.pool} + reserves {state.honor} + on cards {state.dragon_tokens}"
        )
    if state.pool < 0 or min(state.honor) < 0:
        raise ContractViolation("negative Honor & Fortune")
    # blocks never grow (but for the Physician Dragon card)
    for u in state.units.values():
        if not 1 <= u.blocks <= state.start_blocks[u.uid]:
            raise ContractViolation(f"unit {u.uid} has {u.blocks} blocks")
    if prev is not None:
        before = {u.uid: u.blocks for u in prev.units.values()}
        for u in state.units.values():
            healed = (dragons.has_effect(state, "physician", uid=u.uid) and u.blocks == before.get(u.uid, 0) + 1) or (
                dragons.has_effect(state, "shot-proof-restore", uid=u.uid)
            )
            if u.uid in before and u.blocks > before[u.uid] and not healed:
                raise ContractViolation(f"unit {u.uid} grew from {before[u.uid]} to {u.blocks} blocks")
    # every piece is on the board or removed, once
    on_board = [u.uid for u in state.units.values()] + [ld.lid for ld in state.leaders.values()]
    removed = [r["piece"] for r in state.removed]
    if len(set(on_board + removed)) != len(on_board) + len(removed):
        raise ContractViolation("a piece is both on the board and removed, or twice somewhere")
    # banners = enemy units and Leaders eliminated (bodyguards excepted) + objectives
    for side in (0, 1):
        kills = sum(
            1 for r in state.removed
            if r["side"] != side and r["cause"] == "killed" and r["type"] != "BG"
        )
        if state.banners[side] != kills + state.objectives[side]:
            raise ContractViolation(
                f"side {side}: {state.banners[side]} banners but {kills} kills + {state.objectives[side]} objectives"
            )
    # Leaders never on half-hexes, one per hex by construction
    for h in state.leaders:
        if state.b.is_half(h):
            raise ContractViolation(f"a Leader stands on the half-hex {state.name(h)}")
    # every Command and Dragon card is in exactly one place
    cmd = state.hands[0] + state.hands[1] + state.cmd_deck + state.cmd_discard
    if state.ti.get("card"):
        cmd.append(state.ti["card"])
    cmd.extend(fs["card"] for fs in state.ti.get("first_strikes", []))
    for t in state.stack:
        cmd.extend(t.get("drawn", []))
    deck_size, dragon_deck_size = _deck_sizes(state)
    if len(cmd) != len(set(cmd)) or len(cmd) != deck_size:
        raise ContractViolation(f"Command cards not conserved: {len(cmd)} cards, {len(set(cmd))} distinct")
    drg = state.dragons[0] + state.dragons[1] + state.dr_deck + state.dr_discard + state.ti["dragons_in_play"]
    if len(drg) != len(set(drg)) or len(drg) != dragon_deck_size:
        raise ContractViolation("Dragon cards not conserved")


def test_contract_uniform_random_games_with_full_checks_every_action():
    report = run_contract(GAME, None, games=4, seed=11, invariants=(invariants,))
    assert report.games == report.finished == 4


@pytest.mark.parametrize("chunk", range(10))
def test_contract_one_thousand_seeded_games_with_invariants_after_every_action(chunk):
    report = run_contract(
        GAME, None, games=100, seed=2026, first_game=chunk * 100, invariants=(invariants,),
        full_checks_every=25, policy=aggressive_policy,
    )
    assert report.games == report.finished == 100
    assert set(report.winners) <= {0, 1}


def card_hungry_policy(state, legal: list[str], rng: Rng) -> str:
    """Aggressive, and plays a card whenever it may: every card must come out in a few games."""
    cards = [a for a in legal if a.startswith(("dragon ", "first-strike", "take "))]
    if cards and rng.randbelow(10) < 9:
        return rng.choice(cards)
    return aggressive_policy(state, legal, rng)


def test_contract_every_command_and_dragon_card_is_played_with_invariants():
    seen: set[str] = set()

    def collect(state) -> None:
        for e in state.events:
            if e.kind in ("play", "dragon") and "slug" in e.data:
                seen.add(e.data["slug"])

    # the skirmish has no water, so Blue Dragon needs a battle by a river too
    # (Personal Challenge needs two Leaders meeting: the pincer battle has many)
    for scenario, games in ((None, 50), ("kawanakajima-1561-takeda-pincer", 20)):
        report = run_contract(
            GAME, scenario, games=games, seed=77, invariants=(invariants,), full_checks_every=10,
            policy=card_hungry_policy, on_state=collect,
        )
        assert report.finished == games
    every = set(GAME.tables.command) | set(GAME.tables.dragon)
    assert sorted(every - seen) == []
