"""Make ``cc_pending_saves.json``: one saved C&C Samurai state (GMT and Zvezda rules) per kind
of pending decision (per step of a combat and of the end of turn, per Dragon card window) and
per optional field a task may carry, with what the code that made it answers: legal actions,
prompt, observation, one action and the state, legal actions and events after it.

Run with the code whose saves are to be kept (made at commit ac195c5, before the task
records were typed): ``PYTHONPATH=src python tests/rulesets/saves/make_cc_saves.py``.
Seeded random games, Dragon cards and First Strike preferred so rare windows come up.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from kassen.engine.rng import Rng
from kassen.rulesets.registry import load_game

OUT = Path(__file__).parent / "cc_pending_saves.json"


def kind_of(task: dict[str, Any]) -> str:
    """A decision's label: its kind, with the combat's or end of turn's step, or the Dragon window."""
    t = task["t"]
    if t in ("combat", "end"):
        return f"{t}-{task['step']}"
    if t == "dragon":
        return f"dragon-{task['w']}"
    return str(t)


def choose(rng: Rng, legal: list[str]) -> str:
    """Uniform, but a Dragon card or First Strike half the time when one is legal; never concede."""
    legal = [a for a in legal if a != "concede"] or legal
    special = [a for a in legal if a.startswith(("dragon ", "first-strike", "battle-back", "bonus ", "advance"))]
    if special and rng.randbelow(2) == 0:
        return special[rng.randbelow(len(special))]
    return legal[rng.randbelow(len(legal))]


def case(gid: str, scenario: str, seed: int, label: str, s: Any, action: str) -> dict[str, Any]:
    seat = s.to_move()
    after = s.apply(action)
    return {"kind": label, "scenario": scenario, "seed": seed, "state": s.to_json(), "legal": s.legal_actions(),
            "prompt": s.prompt(), "observation": json.loads(json.dumps(s.observation(seat))), "action": action,
            "after": after.to_json(), "after_legal": after.legal_actions(),
            "events": [e.to_json() for e in after.events]}


def main(games: int = 60) -> None:
    out: dict[str, list[dict[str, Any]]] = {}
    for gid in ("cc-samurai", "cc-samurai-zvezda"):
        game = load_game(gid)
        seen: set[str] = set()
        cases: list[dict[str, Any]] = []
        for seed in range(games):
            for scenario in game.scenarios():
                s = game.new_state(scenario, seed)
                rng = Rng(seed * 7919 + 17)
                steps = 0
                while s.to_move() is not None and steps < 1500:
                    top = s.stack[-1]
                    action = choose(rng, s.legal_actions())
                    # a decision of a new kind, or a task anywhere on the stack with a new field
                    labels = [kind_of(top)]
                    labels += [f"{t['t']}+{k}" for t in s.stack for k in t]
                    new = [x for x in labels if x not in seen]
                    if new:
                        seen.update(new)
                        cases.append(case(gid, scenario, seed, kind_of(top), s, action))
                    s = s.apply(action)
                    steps += 1
        out[gid] = cases
        print(gid, len(cases), sorted({c["kind"] for c in cases}), file=sys.stderr)
    OUT.write_text(json.dumps(out, sort_keys=True, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
