from __future__ import annotations

from collections import Counter

import pytest

from kassen.engine.dice import FACES, Face, parse_faces, roll_die
from kassen.engine.errors import FormatError
from kassen.engine.events import Event, events_for_seat
from kassen.engine.record import GameRecord
from kassen.engine.rng import Rng


def test_rng_same_seed_same_sequence_and_copy_is_independent():
    a, b = Rng(99), Rng(99)
    assert [a.next64() for _ in range(10)] == [b.next64() for _ in range(10)]
    c = a.copy()
    a.next64()
    assert c.state != a.state


def test_battle_die_has_six_faces_each_one_sixth():
    assert len(FACES) == 6 and set(FACES) == set(Face)
    rng = Rng(5)
    counts = Counter(roll_die(rng) for _ in range(60000))
    for face in Face:
        assert abs(counts[face] / 60000 - 1 / 6) < 0.01


def test_shuffle_is_a_permutation():
    rng = Rng(1)
    items = list(range(60))
    out = rng.shuffled(items)
    assert sorted(out) == items and out != items


def test_parse_faces_refuses_unknown_face():
    assert parse_faces("c t s f h x") == list(Face)
    with pytest.raises(FormatError, match="not a die face"):
        parse_faces("q")


def test_private_event_is_redacted_for_other_seats():
    e = Event("draw", {"card": "X"}, "Red draws X", visible_to=(0,), redacted=Event("draw", {}, "Red draws"))
    assert [ev.text for ev in events_for_seat([e], 0)] == ["Red draws X"]
    assert [ev.text for ev in events_for_seat([e], 1)] == ["Red draws"]
    assert [ev.text for ev in events_for_seat([e], None)] == ["Red draws"]
    assert Event.from_json(e.to_json()) == e


def test_record_refuses_malformed_saves():
    with pytest.raises(FormatError, match="format"):
        GameRecord.from_json({"format": "other"})
    with pytest.raises(FormatError, match="seed"):
        GameRecord.from_json({"format": "kassen-game/1", "ruleset": "x", "rules_version": "1", "actions": []})
    with pytest.raises(FormatError, match="actions"):
        GameRecord.from_json(
            {"format": "kassen-game/1", "ruleset": "x", "rules_version": "1", "seed": 1, "actions": [3]}
        )
