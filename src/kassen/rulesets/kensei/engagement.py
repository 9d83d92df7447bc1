"""One Kensei engagement (a hand-to-hand combat, a shot or an artillery shot) described as
data, and its exact odds: the format of ``kassen odds --game kensei FILE`` and of the page's
roll resolver (docs/formats.md (Kensei))."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from kassen.engine.errors import FormatError


class _Side(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)
    roster: str
    troop: str


class _Engagement(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["hand-to-hand", "shooting", "artillery"]
    attacker: _Side | None = None
    defender: _Side | None = None
    artillery: dict[str, Any] | None = None
    target: _Side | None = None
    affected: int = Field(default=0, ge=0)
    fire_template: bool = False


def _situation(side: _Side, where: str, source: str) -> Any:
    from kassen.rulesets.kensei.rolls import Situation

    known = {f.name for f in dataclasses.fields(Situation)}
    extra = dict(side.model_extra or {})
    unknown = sorted(set(extra) - known)
    if unknown:
        raise FormatError(f"{source}: [{where}] unknown field {unknown[0]!r}; known: roster, troop, "
                          f"{', '.join(sorted(known))}")
    try:
        return TypeAdapter(Situation).validate_python(extra)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise FormatError(f"{source}: [{where}] field {loc!r}: {err['msg']}") from None


def _troop(side: _Side, where: str, base: Path) -> Any:
    from kassen.rulesets.kensei.roster import profiles, read_roster

    path = Path(side.roster)
    if not path.is_absolute() and (base / path).exists():
        path = base / path
    r = read_roster(path if path.exists() else side.roster)
    found = {p.id: p for p in profiles(r)}
    if side.troop not in found:
        raise FormatError(f"[{where}] roster {r.name!r} has no troop {side.troop!r}; its troops: {', '.join(found)}")
    return found[side.troop]


def read_engagement(path: Path) -> dict[str, Any]:
    """Read the engagement file ``path`` and count its odds: a JSON-ready dict (raises ``KassenError``)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise FormatError(f"{path}: cannot read the engagement: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{path}: not valid TOML: {exc}") from None
    return engagement_odds(data, str(path), path.parent)


def engagement_odds(data: dict[str, Any], src: str, base: Path | None = None) -> dict[str, Any]:
    """The exact odds of the engagement ``data`` (read from ``src``; rosters given by path are
    found beside ``base``): a JSON-ready dict (raises ``KassenError``)."""
    from kassen.rulesets.kensei import rolls

    try:
        e = _Engagement.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise FormatError(f"{src}: field {loc!r}: {err['msg']}") from None
    base = base or Path.cwd()
    if e.kind in ("hand-to-hand", "shooting"):
        if e.attacker is None or e.defender is None:
            raise FormatError(f"{src}: a {e.kind} engagement needs [attacker] and [defender] tables")
        a, b = _troop(e.attacker, "attacker", base), _troop(e.defender, "defender", base)
        sa, sb = _situation(e.attacker, "attacker", src), _situation(e.defender, "defender", src)
        if e.kind == "hand-to-hand":
            m = rolls.hand_to_hand(a, b, sa, sb)
            return {"kind": e.kind, **m.to_json()}
        return {"kind": e.kind, "a": rolls.odds(rolls.plan_shot(a, b, sa, sb)).to_json()}
    if e.artillery is None or e.target is None:
        raise FormatError(f"{src}: an artillery engagement needs [artillery] and [target] tables")
    known = {f.name for f in dataclasses.fields(rolls.ArtillerySituation)}
    unknown = sorted(set(e.artillery) - known)
    if unknown:
        raise FormatError(f"{src}: [artillery] unknown field {unknown[0]!r}; known: {', '.join(sorted(known))}")
    try:
        art = TypeAdapter(rolls.ArtillerySituation).validate_python(e.artillery)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise FormatError(f"{src}: [artillery] field {'.'.join(str(p) for p in err['loc'])!r}: {err['msg']}") from None
    tp = _troop(e.target, "target", base)
    st = _situation(e.target, "target", src)
    ip = rolls.plan_impact(art)
    io = rolls.impact_odds(ip)
    from kassen.rulesets.kensei.data import load_tables

    t = load_tables()
    impact = {"plan": ip.to_json(), "successes": {str(k): {"p": str(v), "float": float(v)} for k, v in sorted(io.items())},
              "effects": {str(k): rolls.impact_effect(t, ip.impact, k) for k in sorted(io)}}
    dmg = rolls.odds(rolls.plan_artillery_damage(art.ammunition, tp, st, e.affected, e.fire_template))
    return {"kind": e.kind, "impact": impact, "a": dmg.to_json()}
