"""Positions of the clan card game built directly, for rule tests."""

from __future__ import annotations

from kassen.rulesets.clans.data import CLANS
from kassen.rulesets.clans.game import ClansGame
from kassen.rulesets.clans.state import ClansState, card_clan, clan_cards, is_secret

GAME = ClansGame()
K, H, Y, J = "kamiwashi", "hondo", "yasei", "jozu"


def position(
    tiles: list[tuple[str, int, int]],
    cards: dict[str, tuple[list[str], list[str]]] | None = None,
    *,
    n: int = 2,
    teams: bool = False,
    phase: str = "resolve",
    hands: list[list[str]] | None = None,
    turn: int = 0,
    rnd: int = 7,
    left: int = 1,
    last: list[str | None] | None = None,
    clans: tuple[int, ...] | None = None,
) -> ClansState:
    """A state with Battlefields ``tiles`` (tile, side 0 seat, side 1 seat) and the cards
    ``cards[tile] = (side 0 cards, side 1 cards)`` bottom first. A Secret card is face
    down (known to its owner) unless its id ends with ``!`` (revealed by a Scout)."""
    s = GAME.new_state({2: "2-players", 3: "3-players-beginners", 4: "4-players-beginners"}[n], 0)
    s.teams = teams
    if clans is not None:
        s.clans = clans
    s.tiles, s.sides, s.stacks, s.outcome, s.bonus = [], [], [], [], []
    for tile, a, b in tiles:
        s._place_tile(tile, a, b)
    for tile, pair in (cards or {}).items():
        i = s.tiles.index(tile)
        for side, ids in enumerate(pair):
            for cid in ids:
                up = cid.endswith("!") or not is_secret(cid.rstrip("!"))
                cid = cid.rstrip("!")
                owner = s.clans.index(card_clan(cid))
                s.stacks[i][side].append((cid, up, s.all_mask if up else 1 << owner))
    on_board = {e[0] for pair in s.stacks for st in pair for e in st}
    s.hands = [[c for c in h if c not in on_board] for h in hands] if hands is not None else [[] for _ in range(n)]
    s.phase, s.turn, s.round, s.left = phase, turn, rnd, left
    s.last_card = last if last is not None else [None] * n
    s.events = ()
    return s


def army(clan: str) -> list[str]:
    """All 13 card ids of ``clan``."""
    return clan_cards(CLANS.index(clan.title()))


def play(s: ClansState, *actions: str) -> ClansState:
    for a in actions:
        s = s.apply(a)
    return s


def outcome(s: ClansState, tile: str) -> dict:
    o = s.outcome[s.tiles.index(tile)]
    assert o is not None
    return o
