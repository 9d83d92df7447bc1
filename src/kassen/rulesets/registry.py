"""One registration point per game: every front end (command line, web server, AI, research
environments) learns what a game is and what it can do from its :class:`RulesetSpec`, never
from its id.

A ruleset package ``kassen.rulesets.<name>`` declares its games in ``SPECS`` (a tuple of
specs, one per game id) in its ``__init__.py``; every package there is found by looking, so
a new game is one package and no edit anywhere else. A game shipped by another distribution
registers through the ``kassen.games`` entry point group (the entry point names a spec or a
tuple of specs), and :func:`register` adds one at run time (tests, notebooks).

Hooks that live in a front end (a terminal renderer, a command's table printer, an AI level's
player) are named as ``"module:attribute"`` strings, so declaring a game imports nothing of
the front ends and ``kassen --help`` stays fast; each front end resolves its own hooks with
:func:`hook`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kassen.engine.errors import KassenError
from kassen.engine.protocol import Game

#: a game's settings of one AI level (counted budgets, weights files, margins)
LevelSettings = Mapping[str, Any]


@dataclass(frozen=True)
class AISpec:
    """What ``easy``, ``normal`` and ``hard`` are for a game.

    ``player`` is the hook ``(spec, level, seed) -> Player`` that builds a level's player
    (``None``: the generic levels, greedy and MCTS at budgets to match); ``levels`` its settings
    per level; ``evaluation``, ``endgame`` and ``horizon`` the game's own position evaluation,
    endgame play-out and playout horizon for the look-ahead levels (hooks, or ``None``).
    ``timed`` says the levels' thinking time is known well enough to be shown (``up to 2 s a
    turn``)."""

    player: str | None = None
    levels: Mapping[str, LevelSettings] = field(default_factory=dict)
    evaluation: str | None = None
    endgame: str | None = None
    horizon: str | None = None
    timed: bool = False


@dataclass(frozen=True)
class EnvSpec:
    """How the research environments see a game: ``actions`` the hook ``(game) -> list[str]``
    of its static action index; ``encoder`` the hook ``(game_id) -> Encoder`` of its observation
    tensor (from ``observation(seat)``; ``kassen.envs.fast`` picks a fast observer of the same
    tensor by the encoder's class); ``seat_in_observation``: the encoder reads the seat as
    ``obs["_seat"]``; ``options``: the game options the environments give unless the caller
    gives them (docs/research.md)."""

    actions: str
    encoder: str
    seat_in_observation: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RulesetSpec:
    """Everything the front ends need to know of one game.

    - ``id``, ``description``: the game id of every command and of the API, and one line about it;
    - ``game``: the :class:`Game` factory (a hook string ``"module:Class"`` or a callable);
    - ``default``: the game of commands that are given none (exactly one spec);
    - ``default_players``: who plays when ``--players`` is not given;
    - ``scenario_info``: ``(game, scenario id) -> dict`` with ``name``, ``year``, ``sides``,
      ``note``, ``first``, ``banners`` of a scenario (missing keys: unknown), or the hook naming
      it, most often the game's own method (``"module:Game.scenario_summary"``);
    - ``web_view``: the page's view module (``static/views/<name>.js``); ``terminal_view``: the
      hook ``(observation, seat) -> renderable`` drawing it in the terminal (``None``: the hex
      board when the observation has one, else the observation itself);
    - ``rules_tables``: the hook ``(spec, cards, as_json) -> None`` of ``kassen rules``;
      ``scenario_table``: the hook ``(spec, as_json) -> None`` when ``kassen scenarios GAME``
      prints more than the common columns; ``odds``: the hook ``(spec, path, as_json) -> None``
      of ``kassen odds --game GAME FILE``; ``unit_odds``: the game answers ``kassen odds
      --attacker ... --defender ...`` (the C&C attack calculator); ``unit_reference``: its
      ``tables`` of units and terrain back the page's hover cards;
    - ``calculator``: the hook ``(game, state, request) -> odds`` of the game's dice calculator
      (the page's roll resolver; ``None``: none);
    - ``play_words``: ``(words) -> (scenario, options)`` reading the words after ``kassen play
      GAME`` beyond the scenario (Kensei's two rosters);
    - ``forced_dice``: ``(text) -> dice`` reading ``kassen run --dice`` (``None``: no dice to
      force); ``dice_at_setup``: the set-up throws dice, so forced dice start there;
    - ``primer``: the hook ``(game, state, seat) -> dict`` of the page's rules primer (sections of
      ``title`` and ``items``, the victory conditions of the battle played, ``terrain`` effects by
      slug, ``banners``), from what ``seat`` may see (``None``: the page shows none);
    - ``ai``: the AI levels; ``env``: the research environments (``None``: not one);
    - ``people_only``: every decision is a fact of a physical table (Kensei), so the lobby offers
      people only for its seats (a computer seat could only guess the table's facts).
    """

    id: str
    description: str
    game: str | Callable[[], Game]
    default: bool = False
    default_players: str = "human,normal"
    scenario_info: str | Callable[[Game, str], dict[str, Any]] | None = None
    web_view: str = "generic"
    terminal_view: str | None = None
    rules_tables: str | None = None
    scenario_table: str | None = None
    odds: str | None = None
    unit_odds: bool = False
    unit_reference: bool = False
    calculator: str | None = None
    play_words: Callable[[list[str]], tuple[str | None, dict[str, Any]]] | None = None
    forced_dice: Callable[[str], list[Any]] | None = None
    dice_at_setup: bool = False
    primer: str | None = None
    ai: AISpec = field(default_factory=AISpec)
    env: EnvSpec | None = None
    people_only: bool = False

    def load(self) -> Game:
        """A new :class:`Game` of this spec."""
        made = hook(self.game)() if isinstance(self.game, str) else self.game()
        if not isinstance(made, Game):
            raise KassenError(f"{self.id}: the spec's game factory made {type(made).__name__}, not a Game")
        return made

    def summary(self, game: Game, sid: str) -> dict[str, Any]:
        """The scenario's name, year, sides, note, first seat and banners, as far as the game tells."""
        row: dict[str, Any] = {"id": sid, "name": sid, "year": None, "sides": list(game.seats), "note": "",
                               "first": None, "banners": None}
        row.update({k: v for k, v in self.scenario_details(game, sid).items() if k in row})
        return row

    def scenario_details(self, game: Game, sid: str) -> dict[str, Any]:
        """What ``scenario_info`` tells of the scenario (``{}`` without one)."""
        if self.scenario_info is None:
            return {}
        info = hook(self.scenario_info) if isinstance(self.scenario_info, str) else self.scenario_info
        got = info(game, sid)
        if not isinstance(got, dict):
            raise KassenError(f"{self.id}: the spec's scenario_info gave {type(got).__name__}, not a dict")
        return got


def hook(ref: str) -> Any:
    """The object a ``"module:attribute"`` hook names."""
    module, sep, attr = ref.partition(":")
    if not sep:
        raise KassenError(f"hook {ref!r}: expected 'module:attribute'")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


#: the package whose sub-packages are searched for ``SPECS``
PACKAGE = "kassen.rulesets"
#: the entry point group other distributions register games in
ENTRY_POINTS = "kassen.games"

_found: dict[str, RulesetSpec] | None = None
#: the games added by :func:`register` (id -> spec), after the shipped ones
ADDED: dict[str, RulesetSpec] = {}


def _as_specs(obj: Any, where: str) -> list[RulesetSpec]:
    items = obj if isinstance(obj, (tuple, list)) else [obj]
    for s in items:
        if not isinstance(s, RulesetSpec):
            raise KassenError(f"{where}: expected a RulesetSpec, got {type(s).__name__}")
    return list(items)


def _discover() -> dict[str, RulesetSpec]:
    global _found
    if _found is None:
        found: dict[str, RulesetSpec] = {}
        pkg = importlib.import_module(PACKAGE)
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if not info.ispkg:
                continue
            module = importlib.import_module(f"{PACKAGE}.{info.name}")
            for s in _as_specs(getattr(module, "SPECS", ()), module.__name__):
                found.setdefault(s.id, s)
        from importlib.metadata import entry_points

        for ep in entry_points(group=ENTRY_POINTS):
            for s in _as_specs(ep.load(), f"entry point {ep.name}"):
                found.setdefault(s.id, s)
        _found = found
    return _found


def specs() -> list[RulesetSpec]:
    """Every registered game, shipped ones first (in package order), then those registered."""
    return [*_discover().values(), *(s for gid, s in ADDED.items() if gid not in _discover())]


def register(spec: RulesetSpec) -> RulesetSpec:
    """Add a game (or replace one added before); returns it. Shipped ids cannot be replaced."""
    if spec.id in _discover():
        raise KassenError(f"game id {spec.id!r} is already a shipped game")
    ADDED[spec.id] = spec
    return spec


def unregister(game_id: str) -> None:
    """Remove a game added by :func:`register` (nothing if it was not)."""
    ADDED.pop(game_id, None)


def available() -> list[str]:
    """Every game id, in the order of :func:`specs`."""
    return [s.id for s in specs()]


def get(game_id: str) -> RulesetSpec:
    """The spec of ``game_id``; raises ``KassenError`` listing the known ids."""
    for s in specs():
        if s.id == game_id:
            return s
    raise KassenError(f"unknown game {game_id!r}; known games: {', '.join(available())}")


def default_game() -> RulesetSpec:
    """The game of commands given none (the spec marked ``default``)."""
    return next((s for s in specs() if s.default), specs()[0])


def spec_of(game: Game) -> RulesetSpec:
    """The spec of a game object (by its id)."""
    return get(game.id)


def load_game(game_id: str) -> Game:
    """The game for ``game_id``; raises ``KassenError`` listing the known ids."""
    return get(game_id).load()


def dice_words(text: str) -> list[Any]:
    """``kassen run --dice`` for d6 games: the numbers as given (``"1,6 3"`` -> ``["1", "6", "3"]``).

    >>> dice_words("1,6 3")
    ['1', '6', '3']
    """
    return text.replace(",", " ").split()
