"""Flags and Retreats (rulebook: Bolster Morale, Retreats, Retreat & Loss of Honor): the flags a
combat scores, how many the unit may ignore and the owner's choice of how many, the castle's hits
in their place, retreat paths, the blocks a blocked retreat costs and the Honor & Fortune a retreat
costs.

Rules functions of the state (``s: CCState``, state.py); the data they read: ``common.CCStateData``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kassen.engine.events import plural
from kassen.engine.hexgrid import Hex
from kassen.rulesets.cc_samurai import dragons, honor, leaders, victory
from kassen.rulesets.cc_samurai.board import Unit
from kassen.rulesets.cc_samurai.common import LEADER_NAME, as_json
from kassen.rulesets.cc_samurai.tasks import CombatTask, RetreatTask

if TYPE_CHECKING:
    from kassen.rulesets.cc_samurai.state import CCState


def flag_ignores(s: CCState, h: Hex, attacker: Unit | None) -> int:
    """Bolster Morale: how many flags the unit at ``h`` may ignore (at most 2)."""
    return min(len(flag_ignore_reasons(s, h, attacker)), 2)


def flag_ignore_reasons(s: CCState, h: Hex, attacker: Unit | None) -> list[str]:
    """Why the unit at ``h`` may ignore flags: one reason per flag (Bolster Morale, 000:1039-1052)."""
    u = s.units[h]
    ut = s.ut(u)
    out: list[str] = []
    support = 0
    for nb in s.b.neighbours(h):
        fu = s.units.get(nb)
        if fu is not None and fu.side == u.side:
            support += 1
        elif fu is None and nb in s.leaders and s.leaders[nb].side == u.side:
            support += 1
    if support >= 2:
        out.append(f"supported by {support} adjacent friendly units or Leaders")
    out.extend([f"{ut.name} ignore a flag"] * ut.ignores_flag)
    if leaders.attached_leader(s, h) is not None:
        out.append("a Leader is attached")
    ter = s.ter(h)
    if ter.ignore_flag_any:
        out.append(f"it holds a {ter.name.lower()}")
    if not ut.cavalry and (
        ter.ignore_flag_inf == "any"
        or (ter.ignore_flag_inf == "cavalry" and attacker is not None and s.ut(attacker).cavalry)
    ):
        out.append(f"infantry in a {ter.name.lower()}" + (" against cavalry" if ter.ignore_flag_inf == "cavalry" else ""))
    return out


def _combat_flags_auto(s: CCState, cx: CombatTask) -> bool:
    dh = cx["tgt"]
    u = s.units.get(dh)
    if u is None:
        cx["step"] = "post"
        return True
    flags = cx["flags"]
    if s.ut(u).bodyguard and leaders.attached_leader(s, dh) is not None:
        s.say("flags", f"The bodyguards ignore {flags} flag{'s' if flags > 1 else ''}: they must ignore all flags")
        cx["step"] = "post"
        return True
    attacker = s.units.get(cx["att"])
    rule = dragons.flag_rule(s, cx, u.side, u.uid)
    if rule == "none":
        max_ignore = 0
    elif rule == "all":
        max_ignore = flags
    else:
        reasons = flag_ignore_reasons(s, dh, attacker)
        max_ignore = min(flags, len(reasons), 2)
        cx["ignore_why"] = reasons[:2]
    if rule == "all":
        cx["ignore_why"] = ["a Dragon card lets it ignore every flag"]
    if max_ignore == 0:
        _apply_flags(s, cx, flags, 0)
        return True
    cx["max_ignore"] = max_ignore
    cx["seat"] = u.side
    return False


def _flag_choices(s: CCState, cx: CombatTask) -> list[str]:
    """Bolster Morale: the owner chooses how many of the flags it may ignore it ignores."""
    return [f"ignore {k}" for k in range(cx["max_ignore"] + 1)]


def _choose_flags(s: CCState, cx: CombatTask, action: str) -> None:
    k = int(action.split()[1])
    _apply_flags(s, cx, cx["flags"] - k, k)


def _apply_flags(s: CCState, cx: CombatTask, remaining: int, ignored: int) -> None:
    dh = cx["tgt"]
    u = s.units[dh]
    cx["step"] = "post"
    cx["seat"] = 1 - u.side
    if ignored:
        why = cx.get("ignore_why") or []
        s.say("flags", f"{s.unit_label(u)} ignores {plural(ignored, 'flag')}"
                 + (f" ({'; '.join(why)})" if why else ""))
    if remaining <= 0:
        return
    if s.ter(dh).castle:
        s.say("castle", f"{s.unit_label(u)} holds the castle and takes a hit for each of {plural(remaining, 'flag')}")
        victory.hit_unit(s, dh, remaining, 1 - u.side, "flags it could not ignore in a castle")
        return
    hexes = remaining * s.ut(u).hexes_per_flag
    s.stack.append(as_json({
        "t": "retreat", "seat": u.side, "uid": u.uid, "at": dh, "left": hexes, "moved": 0,
        "leader": dh in s.leaders, "by": 1 - u.side,
    }))
    s.say("retreat_due", f"{s.unit_label(u)} must retreat {hexes} hex{'es' if hexes > 1 else ''}")


def retreat_steps(s: CCState, h: Hex, u: Unit) -> list[Hex]:
    """Retreats: the hexes one retreat move can reach (toward the own baseline)."""
    x, r = s.b.xr(h)
    r += s.back_dir(u.side)
    out = []
    for dx in (-1, 1):
        n = s.b.at(x + dx, r)
        if n is None or s.ter(n).impassable or n in s.units:
            continue
        if s.b.is_half(n) and (h in s.leaders or not s.t.rules.retreat_onto_half_hexes):
            continue  # the attached Leader may never enter a half-hex; Zvezda units neither (R40)
        ld = s.leaders.get(n)
        if ld is not None:
            if ld.side != u.side or h in s.leaders:
                continue
            if s.ut(u).cavalry and ld.kind != "mounted":
                continue
        out.append(n)
    return out


def _retreat_loss(s: CCState, h: Hex, u: Unit, left: int) -> int:
    """Fewest blocks lost completing ``left`` retreat hexes from ``h``."""
    if left == 0:
        return 0
    steps = retreat_steps(s, h, u)
    if not steps:
        return left
    best = left
    for n in steps:
        if n in s.leaders:
            return 0
        best = min(best, _retreat_loss_from(s, n, h, u, left - 1))
    return best


def _retreat_loss_from(s: CCState, n: Hex, frm: Hex, u: Unit, left: int) -> int:
    # the unit is considered moved from ``frm`` to ``n``
    moved = s.units.pop(frm)
    ld = s.leaders.pop(frm, None)
    s.units[n] = moved
    if ld is not None:
        s.leaders[n] = ld
    try:
        return _retreat_loss(s, n, u, left)
    finally:
        del s.units[n]
        s.units[frm] = moved
        if ld is not None:
            del s.leaders[n]
            s.leaders[frm] = ld


def _retreat_options(st: CCState, task: RetreatTask) -> list[Hex]:
    st.own_pieces()  # _retreat_loss_from moves the unit to and fro (which reorders the dict)
    h = task["at"]
    u = st.units[h]
    steps = retreat_steps(st, h, u)
    if not steps:
        return []
    scored = []
    for n in steps:
        loss = 0 if n in st.leaders else _retreat_loss_from(st, n, h, u, task["left"] - 1)
        scored.append((loss, n))
    best = min(s for s, _ in scored)
    return [n for s, n in scored if s == best]


def _legal_retreat(s: CCState, task: RetreatTask) -> list[str]:
    return [f"retreat {s.name(n)}" for n in sorted(_retreat_options(s, task))]


def _auto_retreat(s: CCState, task: RetreatTask) -> bool:
    h = task["at"]
    u = s.units.get(h)
    if u is None or u.uid != task["uid"]:
        s.stack.pop()
        return True
    if task["left"] <= 0:
        _finish_retreat(s, task, h, u)
        return True
    opts = _retreat_options(s, task)
    if not opts:
        why = "it is at its baseline" if s.b.row(h) == s.baseline_row(u.side) else "its retreat path is blocked"
        s.say("retreat_blocked", f"{s.unit_label(u)} cannot retreat {task['left']} more hex(es): {why}")
        gone = victory.hit_unit(s, h, task["left"], task["by"], "retreat could not be completed")
        task["left"] = 0
        if gone:
            s.stack.pop()
            if task["moved"]:
                _pay_retreat(s, task, h, u)
        return True
    if len(opts) == 1:
        _retreat_step(s, task, h, u, opts[0])
        return True
    return False


def _act_retreat(s: CCState, task: RetreatTask, action: str) -> None:
    h = task["at"]
    _retreat_step(s, task, h, s.units[h], s.b.parse(action.split()[1]))


def _retreat_step(s: CCState, task: RetreatTask, h: Hex, u: Unit, n: Hex) -> None:
    s.own_pieces()
    del s.units[h]
    s.units[n] = u
    ld = s.leaders.get(h)
    if ld is not None and ld.side == u.side:
        del s.leaders[h]
        s.leaders[n] = ld
    task["at"] = n
    task["moved"] += 1
    task["left"] -= 1
    joined = ""
    if ld is None and n in s.leaders:
        joined = f" and stops to join the {LEADER_NAME[s.leaders[n].kind]}"
        task["left"] = 0
    s.say("retreat", f"{s.unit_label(u)} retreats {s.name(h)} to {s.name(n)}{joined}",
             frm=s.name(h), to=s.name(n))


def _finish_retreat(s: CCState, task: RetreatTask, h: Hex, u: Unit) -> None:
    s.stack.pop()
    if task["moved"]:
        _pay_retreat(s, task, h, u)


def _pay_retreat(s: CCState, task: RetreatTask, h: Hex, u: Unit) -> None:
    """Retreat & Loss of Honor, then a Lack of Honor roll if the reserve falls short."""
    ut = s.ut(u)
    moved = task["moved"]
    if ut.retreat_honor_flat:
        cost = ut.retreat_honor_flat + (moved if task["leader"] else 0)
    else:
        cost = moved * (ut.retreat_honor + (1 if task["leader"] else 0))
    short = honor.lose_honor(s, u.side, cost, f"{ut.name} retreated {moved} hex{'es' if moved > 1 else ''}")
    if short:
        honor._push_loh(s, u.side, short, h, u.uid, None, symbol=ut.symbol)
