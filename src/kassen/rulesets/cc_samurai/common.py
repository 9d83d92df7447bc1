"""Constants and small helpers every C&C Samurai rules module shares."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from mypy_extensions import trait

from kassen.engine.events import Event, LazyText
from kassen.engine.hexgrid import Hex, HexBoard
from kassen.engine.protocol import Game, Result
from kassen.engine.rng import Rng
from kassen.rulesets.cc_samurai.board import Leader, Unit
from kassen.rulesets.cc_samurai.data import Tables, TerrainType
from kassen.rulesets.cc_samurai.tasks import CCTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.orders import OrderCache

JSON = dict[str, Any]
POOL_TOTAL = 30
LEADER_MOVE = {"foot": 2, "mounted": 3, "commander": 0}
LEADER_NAME = {"foot": "foot Leader", "mounted": "mounted Leader", "commander": "Army Commander"}


def card_text(t: Tables, before: str, cid: str, after: str = "") -> LazyText:
    """``before`` + the name of the Command card ``cid`` + ``after``, written only when read."""
    return lambda: before + t.command[t.command_ids[cid]].name + after


def dragon_text(t: Tables, before: str, did: str) -> LazyText:
    """``before`` + the name of the Dragon card ``did``, written only when read."""
    return lambda: before + t.dragon[t.dragon_ids[did]].name


def _copy(o: Any) -> Any:
    """Deep copy of JSON-like task data (dicts, lists, scalars)."""
    if isinstance(o, dict):
        return {k: _copy(v) for k, v in o.items()}
    if isinstance(o, list):
        return [_copy(v) for v in o]
    return o


_DECISION_NAMES = {
    "play": "play a Command card",
    "order": "give orders (or 'done')",
    "move": "move (or 'end-move')",
    "battle": "battle (or 'end-battle')",
    "combat": "decide in the combat",
    "retreat": "choose a retreat hex",
    "lretreat": "retreat the lone Leader or commit seppuku",
    "pick": "pick a card",
    "loh": "choose the unit that loses a block",
    "end": "finish the turn",
}


#: memo of ``_order_cache``: (slots, side, bottom) -> {symbol: [sections of the hex (board.SECTION_MASK)
#: -> the id of the slots accepting the piece (``vector_id``), or -1 until computed]} (nested: a
#: look-up builds no key)
_VECTORS: dict[tuple[Any, ...], dict[str | None, list[int]]] = {}
#: every slot vector met (which slots of a card accept a piece), by a small integer id; never cleared
#: (ids stay valid in the order caches of live states; at most a few hundred: cards have few slots)
VECTORS_BY_ID: list[tuple[bool, ...]] = []
_VECTOR_IDS: dict[tuple[bool, ...], int] = {}


def vector_id(vec: tuple[bool, ...]) -> int:
    """The id of a slot vector (``VECTORS_BY_ID[id]`` is it)."""
    got = _VECTOR_IDS.get(vec)
    if got is None:
        got = _VECTOR_IDS[vec] = len(VECTORS_BY_ID)
        VECTORS_BY_ID.append(vec)
    return got

#: piece id -> its key in the turn's orders (``u:<uid>``, ``l:<lid>``), built once
_UNIT_KEYS: dict[str, str] = {}
_LEADER_KEYS: dict[str, str] = {}
#: memo of ``_order_actions``: (vector ids of the pieces ordered..., that of one more) -> all fit
_FITS: dict[tuple[int, ...], bool] = {}


def _slot_sig(slot: JSON) -> tuple[str, ...]:
    if "section" in slot:
        return ("section", str(slot["section"]))
    if "symbol" in slot:
        return ("symbol", str(slot["symbol"]))
    return ("any",)


class Dests:
    """A movement search: ``to``, destination (hex name or 'off') -> hexes moved; how far it looked
    (``radius``: its allowance; a change farther away leaves it valid); and once built, the
    ``move ...`` actions to those destinations (a search is reused only while they hold).
    A native class holding a dict (compiled, a ``dict`` subclass is built by a generic type call)."""

    def __init__(self, radius: int) -> None:
        self.to: dict[str, int] = {}
        self.acts: list[str] | None = None
        self.radius = radius


#: the movement searches of a state that has made none yet (``CCState._mv``): shared, never written
#: (the first search gives the state a dict of its own), so a fork allocates none
NO_MOVES: dict[int, Dests] = {}


def _diff_hexes(old: dict[Hex, Any], new: dict[Hex, Any]) -> list[Hex]:
    """Hexes whose piece differs between two piece maps."""
    if old is new:
        return []
    out: list[Hex] = []
    for h, p in new.items():
        q = old.get(h)
        if q is not p and q != p:  # most pieces are the same objects: no compare of their fields
            out.append(h)
    out.extend(h for h in old if h not in new)
    return out


def _mirror(slug: str) -> str:
    """Counter Attack: the same card with left and right swapped."""
    if slug.endswith("-left"):
        return slug[: -len("left")] + "right"
    if slug.endswith("-right"):
        return slug[: -len("right")] + "left"
    return slug


#: copy-on-write groups of a clone, shared with the parent until first written (``CCState._cow``)
COW_COMMAND = 1  # hands, cmd_deck, cmd_discard
COW_DRAGON = 32  # dragons, dr_deck, dr_discard
COW_CARDS = COW_COMMAND | COW_DRAGON
COW_SCORE = 2  # honor, banners, objectives, command, obj_held, last_played
COW_PIECES = 4  # units, leaders
COW_LOGS = 8  # removed, forced
COW_RNG = 16  # rng
COW_ALL = COW_CARDS | COW_SCORE | COW_PIECES | COW_LOGS | COW_RNG


def as_json(task: CCTask) -> JSON:
    """A typed task record (tasks.py) as the stack's plain JSON task: the same dict."""
    return cast(JSON, task)


def _new_turn_info() -> JSON:
    return {"card": None, "effective": None, "spec": {"mode": "select", "count": 0, "filter": {}}, "orders": [],
            "moved": {}, "no_battle": [], "battled": [], "effects": [], "dragons_in_play": [], "no_order": [],
            "dragon_played": [False, False]}


@trait
class CCStateData:
    """The data of a moment of play, declared once (the values are set by ``CCState.__init__``,
    ``clone`` and ``from_json``). The rules modules are functions of the whole
    :class:`~kassen.rulesets.cc_samurai.state.CCState` (``s: CCState``: native attribute reads
    and calls in the compiled build; docs/engine.md, "Rules as functions of the state")."""

    game: Game
    t: Tables
    b: HexBoard
    scenario_id: str
    scenario_name: str
    victory: int
    order_one_banner: int | None
    tent_banners: int
    exit_banners: int
    bottom: int
    exits: list[list[Hex]]
    #: scenario objectives: {"name", "hexes": [Hex], "side": -1 (both) | 0 | 1, "banners", "kind"}
    objective_defs: list[JSON]
    #: who holds each objective now (a permanent one stays with whoever took it)
    obj_held: list[int | None]
    terrain: dict[Hex, str]
    #: hex -> TerrainType of every hex (indexed by the hex), built on first use (shared by clones
    #: like terrain)
    _terc: list[TerrainType] | None
    tents: dict[int, Hex]
    units: dict[Hex, Unit]
    leaders: dict[Hex, Leader]
    start_blocks: dict[str, int]
    hands: list[list[str]]
    dragons: list[list[str]]
    cmd_deck: list[str]
    cmd_discard: list[str]
    dr_deck: list[str]
    dr_discard: list[str]
    honor: list[int]
    pool: int
    #: Honor & Fortune paid onto Dragon cards in play, back to the pool at the end of the turn
    dragon_tokens: int
    banners: list[int]
    objectives: list[int]
    command: list[int]
    turn: int
    active: int
    #: the tasks, plain JSON as saved and observed; each is built as a record of tasks.py
    stack: list[JSON]
    ti: JSON
    last_played: list[str | None]
    removed: list[JSON]
    rng: Rng
    forced: list[str]
    _result: Result | None
    events: tuple[Event, ...]
    _ev: list[Event]
    _legal: list[str] | None
    #: movement searches of this state, and of the state it was cloned from (reused by apply),
    #: keyed by ``movement.unit_key`` / ``leader_key`` of the hex
    _mv: dict[int, Dests]
    _mv_prev: dict[int, Dests]
    #: the parent's pieces and movement context, to tell which of its searches still hold
    _prev_units: dict[Hex, Unit] | None
    _prev_leaders: dict[Hex, Leader]
    _prev_ctx: tuple[Any, ...] | None
    _changed: list[Hex] | None
    #: uid -> hex and lid -> hex, possibly stale (find_unit and find_leader check them)
    _uidx: dict[str, Hex]
    _lidx: dict[str, Hex]
    #: order key (``u:<uid>``, ``l:<lid>``) -> (hex, the piece there), possibly stale (key_hex checks)
    _kidx: dict[str, tuple[Hex, Unit | Leader]]
    #: which pieces the card played may order (orders.py ``_order_cache``), shared with clones
    _oc: OrderCache | None
