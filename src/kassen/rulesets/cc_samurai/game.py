"""The C&C Samurai game: static facts, setup from a scenario, and states from JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kassen.engine.errors import FormatError
from kassen.engine.protocol import Game
from kassen.engine.rng import Rng
from kassen.rulesets.cc_samurai import dragons, turn
from kassen.rulesets.cc_samurai.board import Leader, Unit, board
from kassen.rulesets.cc_samurai.data import Tables, load_tables
from kassen.rulesets.cc_samurai.scenario import (
    Scenario,
    builtin_scenarios,
    load_builtin,
    load_scenario_file,
    shared_builtin,
)
from kassen.rulesets.cc_samurai.state import POOL_TOTAL, CCState

DEFAULT_SCENARIO = "first-samurai-skirmish"


class CCSamuraiGame(Game):
    """Commands & Colors: Samurai Battles (GMT Games)."""

    id = "cc-samurai"
    name = "Commands & Colors: Samurai Battles"
    #: 2: Dragon-card and First Strike windows open on public information only (R32, issue 30)
    rules_version = "2"
    seats = ("Red", "Blue")
    #: the tables and rule flags used (``data/<edition>.toml`` overlays GMT's)
    edition = "gmt"

    def __init__(self) -> None:
        self.tables: Tables = load_tables(self.edition)

    def card_playable(self, slug: str) -> bool:
        """Whether the card can be dealt: every Command card of the rules list can."""
        return slug in self.tables.command

    def scenarios(self) -> list[str]:
        ids = list(builtin_scenarios(self.edition))
        ids.sort(key=lambda s: (s != DEFAULT_SCENARIO, s))
        return ids

    def default_scenario(self) -> str:
        return DEFAULT_SCENARIO

    def scenario_summary(self, scenario: str) -> dict[str, Any]:
        """The lobby's line of a scenario: name, year, sides, historical note, first side, banners."""
        m = self.load_scenario(scenario).scenario
        return {"name": m.name, "year": m.year, "sides": [m.red_name, m.blue_name], "note": m.note,
                "first": m.first, "banners": m.victory_banners}

    def load_scenario(self, scenario: str | None) -> Scenario:
        """A built-in scenario id, or a path to a scenario/position file."""
        return self._scenario(scenario, False)

    def _scenario(self, scenario: str | None, shared: bool) -> Scenario:
        """``load_scenario``; with ``shared``, a built-in one is the model read once per run
        (``scenario.shared_builtin``: read only) instead of a copy of it."""
        builtin = shared_builtin if shared else load_builtin
        if scenario is None:
            return builtin(DEFAULT_SCENARIO, self.edition)
        path = Path(scenario)
        if scenario.endswith(".toml") or path.exists():
            scen = load_scenario_file(path)
        else:
            scen = builtin(scenario, self.edition)
        if scen.scenario.edition != self.edition:
            other = "cc-samurai" if scen.scenario.edition == "gmt" else f"cc-samurai-{scen.scenario.edition}"
            raise FormatError(f"{scenario}: a battle of the {scen.scenario.edition} edition; play it as the game {other}")
        return scen

    def new_state(self, scenario: str | None = None, seed: int = 0, **options: Any) -> CCState:
        """The battle ``scenario`` set up with ``seed``; C&C Samurai takes no options."""
        if options:
            raise FormatError(f"{self.name} has no game options; got {', '.join(sorted(options))}")
        # a built-in scenario is read and validated once per run: setup only reads it
        return self.setup(self._scenario(scenario, True), seed)

    def setup(self, scen: Scenario, seed: int) -> CCState:
        """Setting Up the Game, steps 1-11, then any position overrides (``scen`` is only read)."""
        if scen.scenario.edition != self.edition:
            raise FormatError(f"{scen.scenario.id}: a battle of the {scen.scenario.edition} edition, "
                              f"not of {self.name}")
        t = self.tables
        b = board()
        s = CCState(self)
        s.rng = Rng(seed)
        meta = scen.scenario
        s.scenario_id, s.scenario_name = meta.id, meta.name
        s.victory = meta.victory_banners
        s.tent_banners, s.exit_banners = scen.rules.tent_banners, scen.rules.exit_banners
        oob = scen.rules.order_one_banner
        s.order_one_banner = None if oob is None else (0 if oob == "red" else 1)
        s.bottom = 0 if meta.bottom == "red" else 1
        for obj in scen.objective:
            s.objective_defs.append({
                "name": obj.name, "hexes": [b.parse(name) for name in obj.hexes],
                "side": {"both": -1, "red": 0, "blue": 1}[obj.side], "banners": obj.banners, "kind": obj.kind,
            })
            s.obj_held.append(None)
        for slug, hexes in scen.terrain.items():
            for name in hexes:
                s.terrain[b.parse(name)] = slug
        for side in (0, 1):
            army = scen.army(side)
            if army.tent:
                th = b.parse(army.tent)
                s.tents[side] = th
                s.terrain[th] = "tent"
            s.exits[side] = [b.parse(e) for e in army.exits]
            nu = nl = 0
            letter = "rb"[side]
            for p in army.pieces:
                h = b.parse(p.at)
                if p.unit is not None:
                    nu += 1
                    uid = f"{letter}u{nu}"
                    blocks = p.blocks or t.units[p.unit].blocks
                    s.units[h] = Unit(uid, p.unit, side, blocks)
                    s.start_blocks[uid] = blocks
                if p.leader is not None:
                    nl += 1
                    s.leaders[h] = Leader(f"{letter}l{nl}", p.leader, side)
            s.command[side] = army.command
        pos = scen.position
        # decks
        cmd_ids = [cid for cid, slug in t.command_ids.items() if self.card_playable(slug)]
        # the Dragon deck holds the cards whose effects are implemented (docs/rulings.md R33)
        dr_ids = [did for did, slug in t.dragon_ids.items() if dragons.implemented(slug)]
        s.cmd_deck = s.rng.shuffled(cmd_ids)
        s.dr_deck = s.rng.shuffled(dr_ids)
        for side in (0, 1):
            army = scen.army(side)
            sp = (pos.red if side == 0 else pos.blue) if pos else None
            if sp is not None and sp.hand is not None:
                s.hands[side] = [_take(s.cmd_deck, t.command_ids, slug, "Command") for slug in sp.hand]
            else:
                s.hands[side] = [s.cmd_deck.pop() for _ in range(min(army.command, len(s.cmd_deck)))]
            if sp is not None and sp.dragons is not None:
                s.dragons[side] = [_take(s.dr_deck, t.dragon_ids, slug, "Dragon") for slug in sp.dragons]
            else:
                s.dragons[side] = [s.dr_deck.pop() for _ in range(min(army.dragon, len(s.dr_deck)))]
            honor = sp.honor if sp is not None and sp.honor is not None else army.honor
            s.honor[side] = honor
            if sp is not None and sp.banners is not None:
                s.banners[side] = sp.banners
                s.objectives[side] = sp.banners
            if sp is not None and sp.command is not None:
                s.command[side] = sp.command
        s.pool = POOL_TOTAL - sum(s.honor)
        if s.pool < 0:
            raise FormatError(f"{meta.id}: the reserves exceed the {POOL_TOTAL} Honor & Fortune tokens")
        s.active = 0 if meta.first == "red" else 1
        if pos is not None:
            if pos.active is not None:
                s.active = 0 if pos.active == "red" else 1
            s.turn = pos.turn
            if pos.command_deck is not None:
                top = [_take(s.cmd_deck, t.command_ids, slug, "Command") for slug in pos.command_deck]
                s.cmd_deck = s.cmd_deck + list(reversed(top))
            if pos.dragon_deck is not None:
                top = [_take(s.dr_deck, t.dragon_ids, slug, "Dragon") for slug in pos.dragon_deck]
                s.dr_deck = s.dr_deck + list(reversed(top))
            for side_name, slug in pos.last_played.items():
                s.last_played[0 if side_name == "red" else 1] = slug
        turn.begin_game(s)
        return s

    def state_from_json(self, data: dict[str, Any]) -> CCState:
        return CCState.from_json(self, data)


class ZvezdaGame(CCSamuraiGame):
    """Samurai Battles (Zvezda, 2012): the earlier edition, as data (``data/zvezda.toml``)
    and the edition flags the state machine asks (docs/rulings.md R36-R46)."""

    id = "cc-samurai-zvezda"
    name = "Samurai Battles (Zvezda)"
    edition = "zvezda"


def _take(deck: list[str], ids: dict[str, str], slug: str, what: str) -> str:
    for i in range(len(deck) - 1, -1, -1):
        if ids[deck[i]] == slug:
            return deck.pop(i)
    raise FormatError(f"position: no {what} card {slug!r} left in the deck (too many copies asked for?)")
