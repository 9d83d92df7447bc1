"""Positions of the clan card game: Battlefields, the cards on each side, what is out of the
game, whose turn it is, in one TOML file (``docs/formats.md``).

Hands are what each clan has not yet placed; their size must be what the turn order says
(two cards a turn, one in the last round), so a position can only be one that play reaches.
Secret cards lie face down, seen by their owner (and by whoever the file says peeked);
Regular cards lie face up, as deployment leaves them.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kassen.engine.errors import FormatError
from kassen.rulesets.clans.data import CARD_TYPES, CLANS, TILES
from kassen.rulesets.clans.state import (
    BRIDGE_LIMIT,
    ROUNDS,
    ClansState,
    card_type,
    cards_per_turn,
    clan_cards,
)


class Placed(BaseModel):
    """A card on a Battlefield: its kind, face up or not, who has seen it."""

    model_config = ConfigDict(extra="forbid")
    card: str
    face_up: bool | None = None
    seen_by: list[str] = Field(default_factory=list)


class BattlefieldSpec(BaseModel):
    model_config = ConfigDict(extra="allow")  # the clans' names are the keys of their stacks
    tile: str
    between: tuple[str, str]


class PositionSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scenario: str = "2-players"
    clans: list[str] | None = None
    phase: Literal["deployment", "combat"] = "deployment"
    round: int = Field(default=1, ge=1, le=ROUNDS)
    turn: str | None = None
    cards_left: int | None = Field(default=None, ge=1, le=2)
    last_card: dict[str, str] = Field(default_factory=dict)
    battlefield: list[BattlefieldSpec]
    removed: dict[str, list[str]] = Field(default_factory=dict)


class PositionFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    position: PositionSpec


def is_position(name: str) -> bool:
    """Whether a scenario name is a position file rather than a set-up's name."""
    return name.endswith(".toml") or Path(name).is_file()


def load_position(s: ClansState, path: str) -> None:
    """Set ``s`` (a fresh state of the position's set-up) to the position of the file at ``path``."""
    try:
        data: dict[str, Any] = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise FormatError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{path}: not valid TOML: {exc}") from None
    try:
        spec = PositionFile.model_validate(data).position
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise FormatError(f"{path}: field {loc}: {err['msg']}") from None
    _apply(s, spec, path)


def read_header(path: str) -> tuple[str, list[str] | None]:
    """The set-up and clans a position file names (to make the state it then fills in)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return "2-players", None  # load_position reports it with the file named
    pos = data.get("position", {}) if isinstance(data, dict) else {}
    scenario = pos.get("scenario", "2-players") if isinstance(pos, dict) else "2-players"
    clans = pos.get("clans") if isinstance(pos, dict) else None
    return (scenario if isinstance(scenario, str) else "2-players",
            [str(c) for c in clans] if isinstance(clans, list) else None)


def _apply(s: ClansState, spec: PositionSpec, where: str) -> None:
    seat_of = {s.name(seat).lower(): seat for seat in range(s.n)}

    def seat(name: str, field: str) -> int:
        if name.lower() not in seat_of:
            raise FormatError(f"{where}: {field}: {name!r} is not a clan in this game "
                              f"({', '.join(s.name(x) for x in range(s.n))})")
        return seat_of[name.lower()]

    unplaced = [list(clan_cards(s.clans[x])) for x in range(s.n)]

    def take(x: int, slug: str, field: str) -> str:
        if slug not in CARD_TYPES:
            raise FormatError(f"{where}: {field}: no card {slug!r} (cards: {', '.join(CARD_TYPES)})")
        left = [c for c in unplaced[x] if card_type(c) == slug]
        if not left:
            raise FormatError(f"{where}: {field}: {s.name(x)} has only {CARD_TYPES[slug][2]} {CARD_TYPES[slug][0]} "
                              "card(s), all placed already")
        unplaced[x].remove(left[0])
        return left[0]

    s.tiles, s.sides, s.stacks, s.outcome, s.bonus = [], [], [], [], []
    neighbours = {frozenset((x, (x + 1) % s.n)) for x in range(s.n)}
    for i, bf in enumerate(spec.battlefield):
        field = f"position.battlefield[{i}]"
        if bf.tile not in TILES:
            raise FormatError(f"{where}: {field}.tile: no Battlefield {bf.tile!r} (tiles: {', '.join(TILES)})")
        if bf.tile in s.tiles:
            raise FormatError(f"{where}: {field}.tile: the {TILES[bf.tile][0]} is placed twice")
        a, b = seat(bf.between[0], f"{field}.between"), seat(bf.between[1], f"{field}.between")
        if a == b or frozenset((a, b)) not in neighbours:
            raise FormatError(f"{where}: {field}.between: a Battlefield lies between two neighbouring clans")
        s._place_tile(bf.tile, a, b)
        extra = dict(bf.model_extra or {})
        for key, cards in extra.items():
            owner = seat(key, f"{field}.{key}")
            if owner not in (a, b):
                raise FormatError(f"{where}: {field}.{key}: {s.name(owner)} has no side on the {TILES[bf.tile][0]}")
            if not isinstance(cards, list):
                raise FormatError(f"{where}: {field}.{key}: a list of cards, bottom first")
            stack = s.stacks[i][0 if owner == a else 1]
            for k, raw in enumerate(cards):
                cf = f"{field}.{key}[{k}]"
                try:
                    placed = Placed(card=raw) if isinstance(raw, str) else Placed.model_validate(raw)
                except ValidationError as exc:
                    raise FormatError(f"{where}: {cf}: {exc.errors()[0]['msg']}") from None
                cid = take(owner, placed.card, cf)
                secret = CARD_TYPES[placed.card][1] == "secret"
                if placed.face_up is False and not secret:
                    raise FormatError(f"{where}: {cf}: a Regular card deployed face down leaves the game (C7): "
                                      "list it under position.removed")
                up = not secret if placed.face_up is None else placed.face_up
                mask = s.all_mask if up else 1 << owner
                for who in placed.seen_by:
                    mask |= 1 << seat(who, f"{cf}.seen_by")
                stack.append((cid, up, mask))
            if bf.tile == "bridge" and len(stack) > BRIDGE_LIMIT:
                raise FormatError(f"{where}: {field}.{key}: at most {BRIDGE_LIMIT} cards a side on the Bridge (C9)")
    if len(s.tiles) != 2 * s.n:
        raise FormatError(f"{where}: position.battlefield: {s.n} clans play on {2 * s.n} Battlefields, "
                          f"the file has {len(s.tiles)}")
    s.removed = []
    for key, cards in spec.removed.items():
        owner = seat(key, f"position.removed.{key}")
        for k, slug in enumerate(cards):
            s.removed.append((take(owner, slug, f"position.removed.{key}[{k}]"), s.all_mask, "out of the game", owner))
    s.hands = unplaced
    s.last_card = [None] * s.n
    for key, slug in spec.last_card.items():
        owner = seat(key, f"position.last_card.{key}")
        placed_ids = [c for st in s.stacks for side in st for c, _, _ in side if card_type(c) == slug
                      and c.startswith(CLANS[s.clans[owner]].lower() + "-")]
        if not placed_ids:
            raise FormatError(f"{where}: position.last_card.{key}: {s.name(owner)} has no {slug!r} on a Battlefield")
        s.last_card[owner] = placed_ids[0]
    _turn(s, spec, where, seat)


def _turn(s: ClansState, spec: PositionSpec, where: str, seat: Any) -> None:
    """Whose turn it is, and the hands the turn order implies."""
    if spec.phase == "combat":
        s.round, s.turn, s.left = ROUNDS + 1, 0, 0
        expect = [13] * s.n
    else:
        s.round = spec.round
        s.turn = 0 if spec.turn is None else seat(spec.turn, "position.turn")
        full = cards_per_turn(s.round)
        s.left = full if spec.cards_left is None else spec.cards_left
        if s.left > full:
            raise FormatError(f"{where}: position.cards_left: round {s.round} deploys {full} card(s) a turn")
        before = sum(cards_per_turn(r) for r in range(1, s.round))
        expect = [before + (full if x < s.turn else full - s.left if x == s.turn else 0) for x in range(s.n)]
    s.deployed = [13 - len(h) for h in s.hands]
    for x in range(s.n):
        if s.deployed[x] != expect[x]:
            raise FormatError(f"{where}: position: {s.name(x)} has placed {s.deployed[x]} cards (on Battlefields "
                              f"and removed), but by this turn it has deployed {expect[x]}")
    s.phase = "deploy"
    s.pending = None
    if spec.phase == "combat":
        s._start_combat()
        s._run()
