"""A stable ``Discrete`` action index per game: notation <-> integer.

Every Kassen action *is* its text notation. Learning code wants integers, so
:func:`action_index` lists, once per game and in a fixed order, every action the
notation can express on that game's board with that game's data, and numbers them.
The list is built by a generator per game (below); nothing depends on a scenario or
a seed, so index ``i`` means the same action in every battle of the game.

How each list is derived (docs/research.md has the sizes):

- **cc-samurai / cc-samurai-zvezda**: the 137 hexes of the 12 x 11 board
  (:func:`kassen.rulesets.cc_samurai.board.board`), the edition's Command and Dragon
  card slugs (``data/*.toml``) and the fixed words. Hex pairs are bounded by the
  rules read from the data: ``move`` pairs up to the longest possible move (the
  fastest unit, Leader or Cavalry Charge, plus the three +1 effects Move as the Wind,
  Forced March and Spirit of the Wind); ``fire`` pairs up to the longest range in the
  unit table; ``attack`` pairs adjacent; a levy swarm ``attack A+B T`` every set of two
  or more neighbours of ``T`` in the engine's (row, column) order. ``ignore N`` up to the
  most dice any unit can roll, ``pick N`` up to the Command deck's size.
- **clans**: the ten Battlefield tiles, the ten card types, the four clans and stack
  positions up to the 13 cards of an army.
- **honourable-victory**: unit ids ``S1..Sm``/``N1..Nm`` (m: the largest army list of the
  shipped data, ready-made clans and battles), zones of the widest table (9 columns),
  facings, formations, facets. Two actions are combinatorial and enumerated only
  partly: ``alloc`` (stands of one unit split over the enemies it is engaged with) is
  listed for two enemies, every split of up to the most stands of any shipped unit;
  ``reroll`` for up to six dice. *This list is therefore not complete*: see overflow.

**Overflow slots.** The index ends with ``overflow`` extra slots. A legal action that is
not in the static list (an ``alloc`` over three or four enemies, a big ``reroll``, a unit
of a home-made army beyond ``m``) gets the next free overflow slot, in the order of
``state.legal_actions()``; :meth:`ActionIndex.encode` returns that state's mapping. The
static part never changes; overflow slots mean "the k-th unlisted legal action now". The
tests check that the shipped scenarios of cc-samurai and clans never need one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations, combinations_with_replacement

from kassen.engine.errors import KassenError
from kassen.engine.protocol import Game
from kassen.rulesets.registry import get, hook, specs

#: overflow slots added to every index (see the module docstring)
OVERFLOW = 256


@dataclass(frozen=True)
class ActionIndex:
    """Notation <-> integer for one game: ``actions[i]`` is action ``i``; then ``overflow``
    slots for legal actions outside the list."""

    game_id: str
    actions: tuple[str, ...]
    overflow: int = OVERFLOW
    _ids: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(set(self.actions)) != len(self.actions):
            raise AssertionError(f"{self.game_id}: duplicate actions in the index")
        self._ids.update((a, i) for i, a in enumerate(self.actions))

    @property
    def size(self) -> int:
        """The ``Discrete`` size: the static actions plus the overflow slots."""
        return len(self.actions) + self.overflow

    def __len__(self) -> int:
        return self.size

    def __contains__(self, action: object) -> bool:
        return action in self._ids

    def index(self, action: str) -> int:
        """The static index of ``action``; ``KeyError`` if it is not listed."""
        return self._ids[" ".join(action.split())]

    def action(self, i: int) -> str:
        """The static action ``i`` (``IndexError`` for an overflow slot)."""
        if not 0 <= i < len(self.actions):
            raise IndexError(f"{self.game_id}: {i} is not a static action index (0..{len(self.actions) - 1})")
        return self.actions[i]

    def encode(self, legal: Sequence[str]) -> dict[str, int]:
        """Each legal action of a state -> its integer (overflow slots for unlisted ones)."""
        out: dict[str, int] = {}
        extra = len(self.actions)
        for a in legal:
            i = self._ids.get(a)
            if i is None:
                if extra >= self.size:
                    raise KassenError(f"{self.game_id}: more than {self.overflow} legal actions outside "
                                      f"the action index (first: {a!r})")
                i = extra
                extra += 1
            out[a] = i
        return out

    def decode(self, i: int, legal: Sequence[str]) -> str:
        """The legal action numbered ``i`` in a state whose legal actions are ``legal``."""
        for a, j in self.encode(legal).items():
            if j == i:
                return a
        shown = self.actions[i] if 0 <= i < len(self.actions) else f"overflow slot {i - len(self.actions)}"
        raise KassenError(f"{self.game_id}: action {i} ({shown}) is not legal now")


def env_games() -> list[str]:
    """The game ids with environments: every registered game whose spec has an ``env`` (not the
    Kensei table companion, whose decisions are facts of a physical table)."""
    return [s.id for s in specs() if s.env is not None]


def action_index(game: Game | str) -> ActionIndex:
    """The action index of ``game`` (a :class:`Game` or a game id), built once per game id."""
    gid = game if isinstance(game, str) else game.id
    return _build(gid)


@cache
def _build(gid: str) -> ActionIndex:
    spec = get(gid)
    if spec.env is None:
        raise KassenError(f"{gid} ({spec.description}) is not an environment; the environments are "
                          f"{', '.join(env_games())}")
    acts: list[str] = hook(spec.env.actions)(spec.load())
    return ActionIndex(gid, tuple(acts))


# ----------------------------------------------------------------- C&C Samurai
#: the three +1 movement effects of Dragon cards (Move as the Wind, Forced March, Spirit of the Wind)
_CC_MOVE_BONUS = 3
#: Cavalry Charge moves SSpC 3 hexes; a mounted Leader moves 3 (state.LEADER_MOVE)
_CC_FIXED_MOVES = (3,)


def cc_actions(game: Game) -> list[str]:
    from kassen.rulesets.cc_samurai.board import board
    from kassen.rulesets.cc_samurai.dragons import CARDS
    from kassen.rulesets.cc_samurai.state import LEADER_MOVE

    t = game.tables  # type: ignore[attr-defined]
    b = board()
    hexes = list(b.cells)
    names = [b.name(h) for h in hexes]
    max_move = max([u.move for u in t.units.values()] + list(LEADER_MOVE.values()) + list(_CC_FIXED_MOVES))
    max_move += _CC_MOVE_BONUS
    max_range = max(u.max_range for u in t.units.values())
    max_dice = max([u.close for u in t.units.values()] + [d for u in t.units.values() for d in u.ranged.values()])
    max_dice = max(max_dice, max(u.blocks for u in t.units.values()))
    cmd = sorted(t.command)
    dragon_slugs = sorted(s for s in t.dragon if s in CARDS)
    out: list[str] = []
    out += ["done", "end-move", "end-battle", "pass", "inspire", "no-inspire", "advance", "stay", "no-bonus",
            "battle-back", "no-battle-back", "seppuku", "keep-dragons", "draw-dragon", "take-honor",
            "first-strike", "defect", "retreat off"]
    out += [f"ignore {k}" for k in range(max_dice + 1)]
    out += [f"pick {k}" for k in range(1, len(t.command_ids) + 1)]
    out += [f"{verb} {s}" for verb in ("play", "keep", "take") for s in cmd]
    out += [f"discard-dragon {s}" for s in dragon_slugs]
    for s in dragon_slugs:
        kind = CARDS[s][1]
        if kind == "tactical":
            out += [f"dragon {s} {x}" for x in ("extra", "left", "center", "right")]
        elif kind in ("enemy-leader", "own-damaged-unit", "enemy-unit", "leaderless-enemy-unit", "mover"):
            out += [f"dragon {s} {n}" for n in names]
        else:
            out.append(f"dragon {s}")
    for n in names:
        out += [f"order {n}", f"order {n} leader", f"hit {n}", f"retreat {n}", f"advance {n}",
                f"bonus {n}", f"battle-back {n}", f"move {n} off", f"move {n} leader off"]
    for h, n in zip(hexes, names):
        for g, m in zip(hexes, names):
            if g == h:
                continue
            d = b.distance(h, g)
            if d <= max_move:
                out += [f"move {n} {m}", f"move {n} leader {m}"]
            if d == 1:
                out.append(f"attack {n} {m}")
            if d <= max_range:
                out.append(f"fire {n} {m}")
    # Levy Infantry Swarm: attackers sorted by (row, column), as the engine lists them
    for tgt in hexes:
        around = sorted(b.neighbours(tgt), key=b.board_order)
        for k in range(2, len(around) + 1):
            for combo in combinations(around, k):
                out.append(f"attack {'+'.join(b.name(h) for h in combo)} {b.name(tgt)}")
    return out


# ----------------------------------------------------------------------- clans
#: most cards on one side of a Battlefield: a whole army
_CLANS_STACK = 13


def clans_actions(game: Game) -> list[str]:
    from kassen.rulesets.clans.data import CARD_TYPES, CLANS, TILES

    tiles = list(TILES)
    clans = [c.lower() for c in CLANS]
    pos = range(1, _CLANS_STACK + 1)
    out: list[str] = []
    out += [f"choose {t}" for t in tiles]
    out += [f"resolve {t}" for t in tiles]
    out += [f"destroy {k}" for k in pos]
    out += [f"bonus {a} {b}" for a in tiles for b in tiles if a != b]
    for slug, (_, kind, _) in CARD_TYPES.items():
        out += [f"deploy {slug} {t}" for t in tiles]
        if kind == "regular":
            out += [f"deploy-down {slug} {t}" for t in tiles]
    for verb in ("reveal", "peek", "assassin"):
        out += [f"{verb} {t} {c} {k}" for t in tiles for c in clans for k in pos]
    out += [f"move {a} {k} {b}" for a in tiles for k in pos for b in tiles if a != b]
    return out


# ----------------------------------------------------------- An Honourable Victory!
_HV_MAX_WIDTH = 9
_HV_ALLOC_FOES = 2
_HV_REROLL_DICE = 6


def hv_actions(game: Game) -> list[str]:
    from kassen.rulesets.honourable_victory.data import builtin_battles, load_battle, load_clans
    from kassen.rulesets.honourable_victory.state import FORMS
    from kassen.rulesets.honourable_victory.table import DIRS, FACETS, zone_name

    armies = list(load_clans().values())
    for name in builtin_battles():
        armies += load_battle(name)[0].clan
    m = max(len(c.units) for c in armies)
    max_stands = max(u.stands for c in armies for u in c.units)
    own = [[f"{p}{k}" for k in range(1, m + 1)] for p in ("S", "N")]
    zones = [zone_name(c, r) for r in range(5) for c in range(_HV_MAX_WIDTH)]
    out: list[str] = ["done", "accept", "daimyo", "end", "concede", "none"]
    out += [f"daimyo {z}" for z in zones]
    for side in (0, 1):
        for u in own[side]:
            out += [f"{u} {w}" for w in ("move", "reserve", "withdraw", "stop", "mount", "dismount", "disengage",
                                         "hold", "break", "counter", "recoil", "fire", "defend", "evade",
                                         "intercept")]
            out += [f"{u} turn {d}" for d in DIRS]
            out += [f"{u} rally {d}" for d in DIRS]
            for f in FORMS:
                out.append(f"{u} form {f}")
                out += [f"{u} form {f} {d}" for d in DIRS]
            out += [f"{u} enter {f}" for f in FORMS]
            out += [f"{u} shift {z}" for z in zones]
            out += [f"{u} engage {e} {f}" for e in own[1 - side] for f in FACETS]
            out += [f"fire {u} {e}" for e in own[1 - side]]
            for k in range(2, _HV_ALLOC_FOES + 1):
                for foes in combinations(own[1 - side], k):
                    for s in range(1, max_stands + 1):
                        for comp in _compositions(s, k):
                            out.append(f"alloc {u} " + " ".join(f"{f}={n}" for f, n in zip(foes, comp)))
    for size in range(1, _HV_REROLL_DICE + 1):
        out += ["reroll " + " ".join(map(str, c)) for c in combinations_with_replacement(range(1, 7), size)]
    return out


def _compositions(n: int, k: int) -> Iterable[tuple[int, ...]]:
    if k == 1:
        yield (n,)
        return
    for i in range(n, -1, -1):
        for rest in _compositions(n - i, k - 1):
            yield (i, *rest)
