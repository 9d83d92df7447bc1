"""Issue 35's bad files, each refused with one line naming the file, the troop and the
field, through ``kassen odds --game kensei`` and through the page's roll resolver (HTTP 422
in the one error shape), and nothing counted."""

from __future__ import annotations

import re
import tomllib
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kassen.cli.main import app
from kassen.engine.errors import FormatError
from kassen.rulesets.kensei import game as kensei_game
from kassen.rulesets.kensei.roster import ROSTER_DIR, read_roster
from tests.rulesets.kensei.helpers import ARTILLERY

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

runner = CliRunner()

MELEE = """
kind = "hand-to-hand"

[attacker]
roster = "buke-vanguard"
troop = "yari-samurai"
charge = true
in_contact = 4

[defender]
roster = "kuroi-te-horde"
troop = "undead-ashigaru"
in_contact = 4
"""

#: (engagement text, what the one line must say); each was accepted or crashed before issue 35
BAD = [
    (ARTILLERY.replace('range_band = "short"', 'range_band = "short"\nenemy_units_near_vertex = -5'),
     r"\[artillery\] field 'enemy_units_near_vertex': .* must be 0 to 60, got -5"),
    (ARTILLERY.replace('range_band = "short"', 'range_band = "short"\nenemy_units_near_vertex = -100000'),
     r"enemy_units_near_vertex.*got -100000"),
    (MELEE.replace("in_contact = 4\n", "in_contact = 4\nstunned = -3\n", 1),
     r"\[attacker\] troop 'yari-samurai': field 'stunned': Stunned markers must be 0 to 1 .*, got -3"),
    (MELEE + "wounds = -5\n", r"\[defender\] troop 'undead-ashigaru': field 'wounds': .* 0 to 0 .*got -5"),
    (MELEE.replace('troop = "yari-samurai"', 'troop = "katana-samurai"').replace(
        "in_contact = 4\n", "in_contact = 3\nwounds = 9\n", 1),
     r"\[attacker\] troop 'katana-samurai': field 'wounds': wound markers .* 0 to 1 .*WO 2.*got 9"),
    (MELEE + "wo_bonus = -2\n", r"\[defender\] troop 'undead-ashigaru': field 'wo_bonus': .*0 or 2, got -2"),
    (MELEE.replace("charge = true", 'charge = "yes"'),
     r"\[attacker\] troop 'yari-samurai': field 'charge': Input should be a valid boolean"),
    (MELEE.replace("in_contact = 4\n", "in_contact = true\n", 1),
     r"\[attacker\] troop 'yari-samurai': field 'in_contact': Input should be a valid integer"),
    (MELEE.replace("in_contact = 4\n", "in_contact = 4.0\n", 1), r"field 'in_contact': Input should be a valid integer"),
    (MELEE + "banner_front = true\n",
     r"\[defender\] troop 'undead-ashigaru': field 'banner_front': Undead ashigaru has no Hata-Jurushi"),
    (MELEE + "leader_wounds = 1\n", r"\[defender\] troop 'undead-ashigaru': field 'leader_wounds'"),
    (MELEE + "leader_alive = false\n", r"field 'leader_alive': Undead ashigaru has no unit leader"),
    (MELEE + "miniatures = 0\n", r"field 'miniatures': miniatures left must be 1 to 10, got 0"),
    (ARTILLERY.replace("affected = 2", "affected = true"), r"field 'affected': Input should be a valid integer"),
]


def _write(tmp_path: Path, text: str | bytes, name: str = "engagement.toml") -> Path:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text)
    return p


def _one_line(output: str) -> str:
    lines = [ln for ln in output.splitlines() if ln.strip()]
    return " ".join(" ".join(lines).split())


@pytest.mark.parametrize(("text", "message"), BAD)
def test_cli_odds_refuses_each_bad_engagement_with_one_line(tmp_path, text, message):
    path = _write(tmp_path, text)
    r = runner.invoke(app, ["odds", "--game", "kensei", str(path)])
    assert r.exit_code == 1, r.output
    line = _one_line(r.output)
    assert line.startswith(f"error: {path}:"), line  # the file first
    assert re.search(message, line), line
    assert "Traceback" not in r.output


def test_cli_odds_a_latin1_engagement_is_an_encoding_error(tmp_path):
    path = _write(tmp_path, MELEE.replace("troop = ", "# Hata-Jurushi é\ntroop = ", 1).encode("latin-1"))
    r = runner.invoke(app, ["odds", "--game", "kensei", str(path)])
    assert r.exit_code == 1 and "not UTF-8 text (byte 0xe9" in _one_line(r.output), r.output


def test_roster_latin1_file_and_ten_thousand_troops_are_refused(tmp_path):
    text = (ROSTER_DIR / "buke-vanguard.toml").read_text()
    latin = _write(tmp_path, text.replace("Yari samurai", "Yari samuraï").encode("latin-1"), "latin.toml")
    with pytest.raises(FormatError, match=r"latin.toml: not UTF-8 text \(byte 0xef"):
        read_roster(latin)
    troop = text[text.index("[[troops]]"):text.index("[[troops]]", text.index("[[troops]]") + 1)]
    many = text + "".join(troop.replace('id = "yari-samurai"', f'id = "t{i}"') for i in range(10_000))
    with pytest.raises(FormatError, match=r"field 'troops': .*at most 60"):
        read_roster(_write(tmp_path, many, "many.toml"))


def test_roster_counts_and_flags_take_only_their_own_types():
    data = tomllib.loads((ROSTER_DIR / "buke-vanguard.toml").read_text())
    from kassen.rulesets.kensei.roster import parse_roster

    for field, value in (("miniatures", "10"), ("banner", "yes"), ("mounted", 1)):
        bad: dict[str, Any] = {**data, "troops": [{**data["troops"][0], field: value}]}
        with pytest.raises(FormatError, match=f"my.toml: field .troops.0.{field} \\(troop 'Yari samurai'\\)"):
            parse_roster(bad, "my.toml")


# ------------------------------------------------------------------ the page's roll resolver
def _side(text: str, key: str, seat: int) -> dict[str, Any]:
    side = dict(tomllib.loads(text)[key])
    side.pop("roster")
    return {"seat": seat, **side}


def _body(text: str) -> dict[str, Any]:
    data = tomllib.loads(text)
    seats = {"buke-vanguard": 0, "kuroi-te-horde": 1}
    for key in ("attacker", "defender", "target"):
        if key in data:
            side = dict(data[key])
            side["seat"] = seats[side.pop("roster")]
            data[key] = side
    return data


@pytest.fixture
def resolver(tmp_path: Path) -> Any:
    from kassen.web.app import create_app

    app_ = create_app(f"sqlite:///{tmp_path / 'games.db'}", allowed_hosts=("testserver",))
    with TestClient(app_) as client:
        r = client.post("/api/games", json={"ruleset": "kensei", "seats": ["human", "human"]})
        assert r.status_code == 201, r.text
        gid, token = r.json()["game_id"], r.json()["seats"][1]["token"]

        def post(body: Any) -> Any:
            return client.post(f"/api/games/{gid}/calculator", json=body,
                               headers={"Authorization": f"Bearer {token}"})

        yield post


@pytest.mark.parametrize(("text", "message"), BAD)
def test_roll_resolver_answers_422_naming_troop_and_field(resolver, text, message):
    r = resolver(_body(text))
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert err["message"].startswith("the roll resolver: ") and "\n" not in err["message"]
    assert re.search(message, err["message"]), err["message"]


def test_roll_resolver_wo_bonus_on_a_one_wo_troop_and_a_boolean_seat_are_422(resolver):
    body = _body(MELEE + "wo_bonus = -1\n")
    r = resolver(body)
    assert r.status_code == 422 and "field 'wo_bonus'" in r.json()["error"]["message"]
    r = resolver({**_body(MELEE), "attacker": {**_body(MELEE)["attacker"], "seat": True}})
    assert r.status_code == 422 and "field 'seat'" in r.json()["error"]["message"]


def test_roll_resolver_stops_a_count_over_its_cpu_budget(resolver, monkeypatch):
    assert resolver(_body(MELEE)).status_code == 200
    monkeypatch.setattr(kensei_game, "CALCULATOR_CPU_SECONDS", -1.0)
    r = resolver(_body(MELEE))
    assert r.status_code == 422 and "ms of CPU" in r.json()["error"]["message"]


def test_roll_resolver_gives_the_markers_left_after_conversion(resolver):
    r = resolver(_body(MELEE + "stunned = 2\n"))
    assert r.status_code == 200, r.text
    on_undead, on_samurai = r.json()["a"]["left"], r.json()["b"]["left"]
    assert {row["stunned"] for row in on_undead} == {0, 1, 2}  # undead: three make a wound (003:252)
    assert {row["stunned"] for row in on_samurai} == {0, 1}    # samurai: two (003:142)
    assert abs(sum(row["float"] for row in on_undead) - 1) < 1e-12


def test_cli_odds_names_a_bad_roster_file_latin1_or_too_many_troops(tmp_path):
    text = (ROSTER_DIR / "buke-vanguard.toml").read_text()
    _write(tmp_path, text.replace("Yari samurai", "Yari samuraï").encode("latin-1"), "latin.toml")
    path = _write(tmp_path, MELEE.replace('roster = "buke-vanguard"', 'roster = "latin.toml"'))
    r = runner.invoke(app, ["odds", "--game", "kensei", str(path)])
    assert r.exit_code == 1 and "latin.toml: not UTF-8 text (byte 0xef" in _one_line(r.output), r.output
    troop = text[text.index("[[troops]]"):text.index("[[troops]]", text.index("[[troops]]") + 1)]
    _write(tmp_path, text + "".join(troop.replace('id = "yari-samurai"', f'id = "t{i}"') for i in range(100)),
           "many.toml")
    r = runner.invoke(app, ["odds", "--game", "kensei", str(_write(tmp_path, MELEE.replace('roster = "buke-vanguard"',
                                                                      'roster = "many.toml"')))])
    assert r.exit_code == 1 and "many.toml: field 'troops'" in _one_line(r.output), r.output


def test_roll_resolver_refuses_a_roll_beyond_its_dice_bound_with_422(resolver, monkeypatch):
    from kassen.rulesets.kensei import counting

    monkeypatch.setattr(counting, "MAX_DICE", 5)  # the bound (120) is above every legal roll: lowered here
    r = resolver(_body(MELEE))
    assert r.status_code == 422 and "at most 5" in r.json()["error"]["message"], r.text
