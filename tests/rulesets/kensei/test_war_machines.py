"""War machines as roster troops (K49-K50): a roster with a machine and its crew loads; the
crew activates, gives its orders, and the Shoot order asks the table, throws the shoot
(impact) roll, the engineer's die and the damage roll (003:263-337). Forced dice only."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kassen.cli.kensei import render
from kassen.cli.main import app
from kassen.engine.errors import FormatError
from kassen.rulesets.kensei.game import KenseiGame
from kassen.rulesets.kensei.roster import parse_roster
from tests.rulesets.kensei.helpers import ROSTER_A, play, start, texts

SETUP = [3, 4, 5, 2, 4, 6, 1]

TAIHO = ROSTER_A + """
[[troops]]
id = "taiho"
name = "Taiho battery"
class = "W"
title = "ashigaru"
miniatures = 3
machine = "taiho"
engineer = true
ammunition = ["solid-shot", "explosive-ball", "shrapnel"]
"""


def activated_machine(tmp_path):
    """The Taiho battery (1 order: roll 2 + INI 1) and the Monks (2 orders) are the active troops."""
    s = play(start(tmp_path, SETUP, a=TAIHO), "role attacker", "no duel", "first me", "activate taiho")
    return s.with_forced_dice([2, 5]).apply("activate monks")


def test_war_machine_roster_loads_with_its_crew_and_ammunition(tmp_path):
    s = activated_machine(tmp_path)
    p = s.profile(0, "taiho")
    assert p.machine is not None and p.machine.name == "Taiho" and p.engineer
    assert p.ammunition == ("solid-shot", "explosive-ball", "shrapnel")
    u = s.unit(0, "taiho")
    assert u["left"] == 3 and u["bags"] == 3
    # the crew serves its machine: no attack, charge or run (K49)
    assert s.legal_actions() == ["move", "strengthen", "interact", "shoot monks", "shoot hero"]


@pytest.mark.parametrize(("field", "value", "message"), [
    ("machine", '"catapult"', "field 'machine': unknown war machine 'catapult'"),
    ("miniatures", "5", "field 'miniatures': a war machine's crew is 1 to 4"),
    ("leader", '"E"', "field 'leader': a war machine's crew has no unit leader"),
    ("ammunition", '["rocks"]', "field 'ammunition': unknown ammunition 'rocks'"),
])
def test_war_machine_roster_errors_name_the_troop_and_field(field, value, message):
    import tomllib

    data = tomllib.loads(TAIHO)
    data["troops"][-1][field] = tomllib.loads(f"x = {value}")["x"]
    with pytest.raises(FormatError, match=f"my.toml: troops\\[2\\] \\('Taiho battery'\\): {message}"):
        parse_roster(data, "my.toml")
    plain = tomllib.loads(ROSTER_A)
    plain["troops"][0]["engineer"] = True
    with pytest.raises(FormatError, match="field 'engineer': only a war machine troop"):
        parse_roster(plain, "my.toml")


def test_war_machine_fires_in_the_turn_sequence(tmp_path):
    """003:277-290: band mid (the Taiho's mid band is not its last: no -1D6), explosive ball,
    one gunpowder bag, elevated: AT 3 - 2 + 1 + 1 + engineer 1 = 4 dice; the engineer rerolls
    the second die; 3 successes widen the area by 15 cm; 2 Monks under it: PO 3 + 2 = 5 damage
    dice at +1 each (explosive), no armour; then the Taiho is Unloaded and has 2 bags left."""
    s = activated_machine(tmp_path)
    s = s.apply("shoot monks")
    q = s.d["questions"][0]
    assert q["key"] == "art-band" and q["options"] == ["band short", "band mid", "band long", "band out-of-range"]
    s = play(s, "band mid")
    assert s.legal_actions() == ["ammo solid-shot", "ammo explosive-ball"]  # shrapnel: short range only (003:324)
    saved = KenseiGame().state_from_json(s.to_json())  # a shot half asked is saved and resumed
    assert saved.legal_actions() == s.legal_actions() and saved.d["combat"] == s.d["combat"]
    s = play(s, "ammo explosive-ball")
    assert s.legal_actions() == ["bags 0", "bags 1", "bags 2"]
    s = play(s, "bags 1", "elevated yes")
    assert s.to_move() == 1 and s.legal_actions() == ["near 0", "near 1"]  # the defender counts his units
    s = play(s, "near 0")
    s = s.with_forced_dice([5, 2, 4, 1]).apply("sight yes")
    assert "4 dice [5, 2, 4, 1]" in texts(s)
    assert "engineer reroll 2" in s.legal_actions() and "engineer ignore 4" in s.legal_actions()
    s = s.with_forced_dice([6]).apply("engineer reroll 2")
    assert "3 success(es) on the impact roll: +15 cm to the impact area's diameter" in texts(s)
    assert s.legal_actions() == [f"affected {k}" for k in range(6)]
    s = play(s, "affected 2")
    # PO 3 + 2 miniatures = 5 dice, +1 each: 1 fumble, 2 -> 3 no wound, 3 -> 4 wound, 6 critical, 5 -> 6 wound
    s = s.with_forced_dice([1, 2, 3, 6, 5]).apply("cover no")
    assert "damage roll [1, 2, 3, 6, 5] (5 dice, +1 each" in texts(s)
    assert s.unit(1, "monks")["left"] == 2  # three wounds on WO-1 monks
    u = s.unit(0, "taiho")
    assert u["unloaded"] and u["bags"] == 2 and s.d["combat"] is None
    assert "shoot monks" not in s.legal_actions() if s.to_move() == 0 else True
    assert not s.forced


def test_war_machine_out_of_range_and_reload(tmp_path):
    s = activated_machine(tmp_path)
    s = play(s, "shoot hero", "band out-of-range")
    assert "no shot" in texts(s) and not s.unit(0, "taiho")["unloaded"]
    s = activated_machine(tmp_path)
    s = play(s, "shoot hero", "band short", "ammo shrapnel", "bags 0", "elevated no", "near 0")
    s = s.with_forced_dice([]).apply("sight yes")  # AT 3 - 2 + engineer 1 = 2 dice... none forced: rolled
    assert s.d["questions"][0]["key"] == "art-engineer"


def test_war_machine_shows_in_the_terminal_view_and_rules(tmp_path):
    s = activated_machine(tmp_path)
    out = render(s.observation(0), 0)
    from rich.console import Console

    c = Console(width=160, record=True)
    c.print(out)
    text = c.export_text()
    assert "Taiho battery" in text and "Taiho" in text and "3 bags" in text
    r = CliRunner().invoke(app, ["rules", "kensei"])
    assert "War machines" in r.output and "in a roster: machine =" in r.output


class ArtilleryBattle(KenseiGame):
    """Kensei with the shipped Kuge artillery roster against the Kuroi-Te horde."""

    def new_state(self, scenario, seed, **options):  # type: ignore[no-untyped-def]
        options.setdefault("rosters", "kuge-artillery,kuroi-te-horde")
        return super().new_state(scenario, seed, **options)


def test_shipped_artillery_roster_random_battles_finish_and_machines_fire():
    """Seeded random battles with two war machines: the contract's checks after every action,
    every battle finishes, gunpowder bags stay within 0 to 3, and the machines do fire."""
    from kassen.testing.contract import run_contract

    fired = []

    def watch(state):
        for e in getattr(state, "events", ()):
            if e.kind == "artillery-roll":
                fired.append(e)
        for seat in (0, 1):
            for u in state.d["units"][seat]:
                assert 0 <= u.get("bags", 0) <= 3, u
                assert ("bags" in u) == (state.profile(seat, u["id"]).machine is not None), u

    report = run_contract(ArtilleryBattle(), None, games=2, seed=3, on_state=watch)
    assert report.finished == 2
    assert len(fired) >= 2, "the war machines hardly fired in two random battles"
