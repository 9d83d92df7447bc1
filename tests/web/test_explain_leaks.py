"""The AI's explained turns (``ai_plans``, issue 30, item 5) of An Honourable Victory! and the
clan game reach the person's view with nothing of what the person may not see: a whole stretch
of play against ``easy``, the person's view searched after every action of the AI for every
string of ``state.secrets(person)``."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.conftest import Seat


@pytest.mark.parametrize(("ruleset", "scenario"), [("clans", "2-players"), ("honourable-victory", "village-ambush")])
def test_the_ais_explained_turns_tell_the_person_nothing_hidden(app_client: Any, ruleset: str, scenario: str) -> None:
    client, svc = app_client
    live, tokens = svc.create(ruleset, scenario, ["human", "easy"], seed=11)
    gid = live.stored.id
    me = Seat(client, gid, tokens[0], 0)
    plans: list[str] = []
    checked = 0
    deadline = time.monotonic() + 120
    while len(plans) < 2 and not live.state.is_terminal():
        assert time.monotonic() < deadline, "the AI explained no turn"
        if live.state.to_move() != 0:
            time.sleep(0.01)
            continue
        r = me.get(0)
        view = r.json()
        secrets = live.history[view["version"]].secrets(0)
        leaked = sorted(s for s in secrets if s in r.text)
        assert not leaked, f"{ruleset} after {view['version']} actions leaks {leaked[:5]}"
        checked += bool(secrets)
        plans[:] = [p["text"] for p in view["ai_plans"]]
        legal = [a for a in live.state.legal_actions() if a != "concede"]
        svc.act(live, 0, legal[len(legal) // 2], None)
    if ruleset == "clans":  # the AI's face-down cards and hand were hidden all along (HV: only fire
        assert checked > 0  # declarations, rare this early; tests/ai/test_explain_public.py has them)
    assert plans and all(p.startswith("easy, ") and "playouts" in p for p in plans), plans
