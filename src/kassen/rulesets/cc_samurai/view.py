"""What the players see: observation, prompt, board JSON, card descriptions; and what the AI
needs (determinize, heuristic, odds of an action).

Rules functions of the state (``s: CCState``, state.py); the data they read: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kassen.engine.events import plural
from kassen.engine.rng import Rng
from kassen.rulesets.cc_samurai import dragons, orders
from kassen.rulesets.cc_samurai.board import BOARD_ORDER, NBRS, SIDE_NAMES
from kassen.rulesets.cc_samurai.common import JSON
from kassen.rulesets.cc_samurai.tasks import task_json

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


def determinize(st: CCState, seat: int, rng: Rng) -> CCState:
    """Resample everything ``seat`` cannot see: the other hand, deck orders, the RNG."""
    s = st.fork()
    s.own_cards()
    s.own_stack()
    opp = 1 - seat
    drawn_hidden = [c for t in s.stack if t.get("drawn") and t["seat"] != seat for c in t["drawn"]]
    # sorted first, so the result depends only on *which* cards are unseen
    pool = sorted(s.cmd_deck + s.hands[opp] + drawn_hidden)
    mixed = rng.shuffled(pool)
    n = len(s.hands[opp])
    s.hands[opp] = mixed[:n]
    rest = mixed[n:]
    for t in s.stack:
        if t.get("drawn") and t["seat"] != seat:
            k = len(t["drawn"])
            t["drawn"], rest = rest[:k], rest[k:]
    s.cmd_deck = rest
    # a card Ninja Thief took from ``seat`` is known to him: it stays in the thief's hand
    thief = s.ti.get("thief")
    kept = [thief[1]] if thief and thief[0] == opp and thief[1] in s.dragons[opp] else []
    dpool = rng.shuffled(sorted(s.dr_deck + [d for d in s.dragons[opp] if d not in kept]))
    k = len(s.dragons[opp]) - len(kept)
    s.dragons[opp], s.dr_deck = kept + dpool[:k], dpool[k:]
    for t in s.stack:
        if t["t"] == "pick":
            t["perm"] = rng.shuffled(sorted(s.hands[t["victim"]]))
    s.rng = Rng(rng.next64())
    s.forced = []
    s.events = ()
    if st.stack and st.stack[-1]["seat"] == seat:
        # the legal actions of the seat to move depend only on what it sees, which this
        # copy keeps: not generated again (greedy and MCTS determinize before every look)
        s._legal = st._legal
    return s


def heuristic(s: CCState, seat: int) -> float:
    """Material, banners and Honor & Fortune, squashed into [-1, 1]."""
    return s.heuristics()[seat]


def heuristics(s: CCState) -> tuple[float, float]:
    """:meth:`heuristic` of both seats in one pass over the board (the same floats, summed
    in the same order, as two separate calls)."""
    res = s._result
    if res is not None:
        if res.winner is None:
            return 0.0, 0.0
        return (1.0, -1.0) if res.winner == 0 else (-1.0, 1.0)
    banners, honor, v = s.banners, s.honor, max(1, s.victory)
    b0, b1 = 12.0 * banners[0] / v * 5, 12.0 * banners[1] / v * 5
    h0, h1 = 0.6 * min(honor[0], 10), 0.6 * min(honor[1], 10)
    # seat 0 adds its own terms first, seat 1 its own: the same order as heuristic(seat) had
    s0 = 0.0 + b0 + h0 - b1 - h1
    s1 = 0.0 + b1 + h1 - b0 - h0
    units, leaders, types = s.units, s.leaders, s.t.units
    nb = NBRS
    for h, u in units.items():
        side = u.side
        t = (2.5 if types[u.type].symbol == "square" else 2.0) * u.blocks
        support = 0
        for n in nb[h]:
            o = units.get(n)
            if o is not None and o.side == side:
                support += 1
        sup = 0.4 if support >= 2 else 0.0
        if side == 0:
            s0 += t
            s1 += -t
            s0 += sup
            s1 += -sup
            if h in leaders:
                s0 += 1.5
                s1 += -1.5
        else:
            s0 += -t
            s1 += t
            s0 += -sup
            s1 += sup
            if h in leaders:
                s0 += -1.5
                s1 += 1.5
    for h, ld in leaders.items():
        if h not in units:
            if ld.side == 0:
                s0 += 3.0
                s1 += -3.0
            else:
                s0 += -3.0
                s1 += 3.0
    return max(-0.99, min(0.99, s0 / 60.0)), max(-0.99, min(0.99, s1 / 60.0))


def action_odds(s: CCState, action: str) -> JSON | None:
    """Exact odds of ``attack A B`` / ``fire A B`` now (:func:`odds.action_odds`)."""
    from kassen.rulesets.cc_samurai.odds import action_odds

    return action_odds(s, action)


def secrets(s: CCState, seat: int | None) -> set[str]:
    out: set[str] = {f'"{c}"' for c in s.cmd_deck} | {f'"{d}"' for d in s.dr_deck}
    for side in (0, 1):
        if side != seat:
            out |= {f'"{c}"' for c in s.hands[side]}
            out |= {f'"{d}"' for d in s.dragons[side]}
    out.add(str(s.rng.state))
    return out


def card_json(s: CCState, cid: str) -> JSON:
    slug = s.t.command_ids[cid]
    c = s.t.command[slug]
    return {"id": cid, "slug": slug, "name": c.name, "kind": c.kind, "text": c.text}


def dragon_json(s: CCState, did: str) -> JSON:
    slug = s.t.dragon_ids[did]
    d = s.t.dragon[slug]
    return {"id": did, "slug": slug, "name": d.name, "cost": d.cost, "window": d.window, "target": d.target,
            "effect": d.effect, "confidence": d.confidence}


def _orders_given_text(s: CCState) -> str:
    """"2 of 3 given": the orders given and what the played card allows (when it has a number),
    counting only the pieces that can take one (Order Four Left with two units there: "of 2")."""
    spec = s.ti.get("spec") or {}
    cap: int | None = len(spec["slots"]) if spec.get("mode") == "slots" else spec.get("count")
    if cap is not None and "max" in spec:
        cap = min(cap, spec["max"])
    if cap is not None and spec.get("mode") in ("slots", "select"):
        cap = min(cap, orders._orders_possible(s, s.active))
    given = len(s.ti["orders"])
    return f"{given} of {cap} given" if cap is not None and 0 < cap < 99 else f"{given} given"


def pending_json(s: CCState) -> JSON | None:
    if not s.stack or s._result is not None:
        return None
    task = task_json(s.stack[-1], s.name)
    out: JSON = {"decision": task["t"], "seat": task["seat"], "side": SIDE_NAMES[task["seat"]],
                 "prompt": s.prompt()}
    for k in ("step", "att", "tgt", "kind", "role", "at", "left", "max_ignore", "flags", "w", "faces"):
        if k in task:
            out[k] = task[k]
    return out


def prompt(s: CCState) -> str:
    if s._result is not None or not s.stack:
        return "the battle is over"
    task = task_json(s.stack[-1], s.name)
    side = s.side_name(task["seat"])
    t = task["t"]
    if t == "combat":
        step = task["step"]
        return {
            "react": f"{side}: your unit at {task['tgt']} is attacked from {task['att']}: answer with First Strike "
                     "or a Dragon card?",
            "prep": f"{side}: play a Dragon card before rolling (attack from {task['att']} on {task['tgt']})?",
            "after_att": f"{side}: play a Dragon card on your roll ({', '.join(task.get('faces', []))})?",
            "after_def": f"{side}: play a Dragon card against the roll on {task['tgt']} "
                         f"({', '.join(task.get('faces', []))})?",
            "hollow": f"{side}: your unit was driven from {task['tgt']}: play a Dragon card to deny the ground?",
            "inspire": f"{side}: spend 1 Honor & Fortune to have a Leader inspire the unit at {task['att']} (+1 die)?",
            "flags": f"{side}: {plural(task.get('flags', 0), 'flag')} against {task['tgt']}; how many to ignore (up to {task.get('max_ignore')})?",
            "gain": f"{side}: gain ground into {task['tgt']}?",
            "bonus": f"{side}: make a bonus close combat from {task['tgt']}?",
            "back": f"{side}: battle back from {task['tgt']} against {task['att']}?",
        }.get(step, str(step))
    if t == "end":
        return {
            "wise": f"{side}: end of turn: play a Dragon card (Wise Advisor) before drawing?",
            "wise-pick": f"{side}: take which card from the Command discard pile?",
            "keep": f"{side}: keep which of the two Command cards drawn?",
            "discard": f"{side}: discard a Dragon card for 1 Honor & Fortune?",
            "replenish": f"{side}: draw a Dragon card or take 2 Honor & Fortune?",
        }.get(task["step"], "end of turn")
    return {
        "play": f"{side}: play a Command card",
        "order": f"{side}: order units and Leaders ({_orders_given_text(s)})",
        "move": f"{side}: move ordered units and Leaders",
        "battle": f"{side}: battle with ordered units",
        "retreat": f"{side}: choose the retreat hex for the unit at {task.get('at')} ({task.get('left')} to go)",
        "lretreat": f"{side}: the lone Leader at {task.get('at')} must retreat 1-3 hexes or commit seppuku",
        "pick": f"{side}: pick one of the opponent's face-down Command cards to discard",
        "loh": f"{side}: Lack of Honor: which of the nearest units loses the block?",
        "dloh": f"{side}: {task.get('why')}: which of your units bearing the symbol loses a block?",
        "turncoat": f"{side}: you decide: does the unit at {task.get('hex')} change sides?",
        "dragon": f"{side}: play a Dragon card now ({dragons.WINDOWS.get(task.get('w', ''), task.get('w'))})?",
    }.get(t, str(t))


def board_json(st: CCState) -> JSON:
    units = []
    order = BOARD_ORDER
    for h, u in sorted(st.units.items(), key=lambda kv: order[kv[0]]):
        ld = st.leaders.get(h)
        units.append({"hex": st.name(h), "id": u.uid, "type": u.type, "side": SIDE_NAMES[u.side],
                      "symbol": st.ut(u).symbol, "blocks": u.blocks,
                      "leader": ld.kind if ld is not None else None})
    lone = [{"hex": st.name(h), "id": ld.lid, "kind": ld.kind, "side": SIDE_NAMES[ld.side]}
            for h, ld in sorted(st.leaders.items(), key=lambda kv: order[kv[0]]) if h not in st.units]
    return {
        "terrain": {st.name(h): t for h, t in sorted(st.terrain.items(), key=lambda kv: order[kv[0]])},
        "tents": {SIDE_NAMES[s]: st.name(h) for s, h in sorted(st.tents.items())},
        "units": units,
        "leaders": lone,
    }


def observation(st: CCState, seat: int | None) -> JSON:
    obs: JSON = {
        "game": st.game.id,
        "scenario": st.scenario_id,
        "turn": st.turn,
        "active": SIDE_NAMES[st.active],
        "bottom": SIDE_NAMES[st.bottom],
        "to_move": None if st.to_move() is None else SIDE_NAMES[st.to_move() or 0],
        "you": None if seat is None else SIDE_NAMES[seat],
        "board": board_json(st),
        "honor": {SIDE_NAMES[s]: st.honor[s] for s in (0, 1)},
        "pool": st.pool,
        "banners": {SIDE_NAMES[s]: st.banners[s] for s in (0, 1)},
        "victory_banners": st.victory,
        "objectives": [
            {"name": o["name"], "hexes": [st.name(h) for h in o["hexes"]], "banners": o["banners"],
             "kind": o["kind"], "for": "both" if o["side"] == -1 else SIDE_NAMES[o["side"]],
             "held_by": None if st.obj_held[i] is None else SIDE_NAMES[st.obj_held[i] or 0]}
            for i, o in enumerate(st.objective_defs)
        ],
        "command": {SIDE_NAMES[s]: st.command[s] for s in (0, 1)},
        "hand_sizes": {SIDE_NAMES[s]: len(st.hands[s]) for s in (0, 1)},
        "dragon_counts": {SIDE_NAMES[s]: len(st.dragons[s]) for s in (0, 1)},
        "command_deck": len(st.cmd_deck),
        "dragon_deck": len(st.dr_deck),
        "command_discard": [card_json(st, c) for c in st.cmd_discard[-5:]],
        "command_discard_size": len(st.cmd_discard),
        "dragon_discard": [dragon_json(st, d) for d in st.dr_discard[-5:]],
        "played": card_json(st, st.ti["card"]) if st.ti.get("card") else None,
        "dragons_in_play": [dragon_json(st, d) for d in st.ti["dragons_in_play"]],
        "dragon_tokens": st.dragon_tokens,
        "orders": [st.name(h) + (" leader" if k[0] == "l" and h in st.units else "")
                   for k in st.ti["orders"] if (h := orders.key_hex(st, k)) is not None],
        "pending": pending_json(st),
        "result": st._result.to_json() if st._result else None,
    }
    if seat is not None:
        obs["hand"] = [card_json(st, c) for c in st.hands[seat]]
        obs["dragons"] = [dragon_json(st, d) for d in st.dragons[seat]]
        if st.to_move() == seat:
            obs["legal_actions"] = st.legal_actions()
            top = st.stack[-1]
            if top.get("drawn"):
                obs["drawn"] = [card_json(st, c) for c in top["drawn"]]
    return obs
