"""One Kensei engagement (a hand-to-hand combat, a shot or an artillery shot) described as
data, and its exact odds: the format of ``kassen odds --game kensei FILE`` and of the page's
roll resolver (docs/formats.md (Kensei))."""

from __future__ import annotations

import dataclasses
import functools
import tomllib
import typing
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from kassen.engine.errors import FormatError, KassenError


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
    affected: int = Field(default=0, ge=0, strict=True)
    fire_template: bool = Field(default=False, strict=True)


@functools.cache
def _strict(cls: type) -> type[BaseModel]:
    """A pydantic model of the dataclass ``cls`` whose fields take only their own types: a
    boolean is ``true`` or ``false`` (not ``"yes"`` nor ``1``), a count an integer (not ``3.0``)."""
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {f.name: (hints[f.name], f.default) for f in dataclasses.fields(cls)}
    model: type[BaseModel] = create_model(cls.__name__, __config__=ConfigDict(extra="forbid", strict=True), **fields)
    return model


def _situation(side: _Side, where: str, source: str, troop: Any) -> Any:
    """The side's situation fields, strictly typed (``true`` not ``"yes"``, ``3`` not ``3.0``)
    and checked against its troop (counts, markers within its WO, its banner)."""
    from kassen.rulesets.kensei.rolls import Situation, check_situation

    known = {f.name for f in dataclasses.fields(Situation)}
    extra = dict(side.model_extra or {})
    unknown = sorted(set(extra) - known)
    if unknown:
        raise FormatError(f"{source}: [{where}] troop {side.troop!r}: unknown field {unknown[0]!r}; known: roster, troop, "
                          f"{', '.join(sorted(known))}")
    try:
        st = Situation(**_strict(Situation).model_validate(extra).model_dump())
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise FormatError(f"{source}: [{where}] troop {side.troop!r}: field {loc!r}: {err['msg']}") from None
    try:
        check_situation(troop, st)
    except KassenError as exc:
        raise FormatError(f"{source}: [{where}] troop {side.troop!r}: {exc}") from None
    return st


def _troop(side: _Side, where: str, base: Path, src: str) -> Any:
    from kassen.rulesets.kensei.roster import profiles, read_roster

    path = Path(side.roster)
    if not path.is_absolute() and (base / path).exists():
        path = base / path
    r = read_roster(path if path.exists() else side.roster)
    found = {p.id: p for p in profiles(r)}
    if side.troop not in found:
        raise FormatError(f"{src}: [{where}] roster {r.name!r} has no troop {side.troop!r}; its troops: "
                          f"{', '.join(found)}")
    return found[side.troop]


def read_engagement(path: Path) -> dict[str, Any]:
    """Read the engagement file ``path`` and count its odds: a JSON-ready dict (raises ``KassenError``)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise FormatError(f"{path}: cannot read the engagement: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise FormatError(f"{path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start}); "
                          f"save the file as UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"{path}: not valid TOML: {exc}") from None
    return engagement_odds(data, str(path), path.parent)


def engagement_odds(data: dict[str, Any], src: str, base: Path | None = None, budget: Any = None
                    ) -> dict[str, Any]:
    """The exact odds of the engagement ``data`` (read from ``src``; rosters given by path are
    found beside ``base``): a JSON-ready dict (raises ``KassenError``). ``budget`` (a
    :class:`~kassen.rulesets.kensei.counting.Budget`) stops a count that uses too much CPU."""
    from kassen.rulesets.kensei import counting, rolls

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
        a, b = _troop(e.attacker, "attacker", base, src), _troop(e.defender, "defender", base, src)
        sa, sb = _situation(e.attacker, "attacker", src, a), _situation(e.defender, "defender", src, b)
        if e.kind == "hand-to-hand":
            m = counting.hand_to_hand(a, b, sa, sb, budget=budget)
            return {"kind": e.kind, **m.to_json()}
        return {"kind": e.kind, "a": counting.odds(rolls.plan_shot(a, b, sa, sb), budget).to_json()}
    if e.artillery is None or e.target is None:
        raise FormatError(f"{src}: an artillery engagement needs [artillery] and [target] tables")
    known = {f.name for f in dataclasses.fields(rolls.ArtillerySituation)}
    unknown = sorted(set(e.artillery) - known)
    if unknown:
        raise FormatError(f"{src}: [artillery] unknown field {unknown[0]!r}; known: {', '.join(sorted(known))}")
    try:
        art = rolls.ArtillerySituation(**_strict(rolls.ArtillerySituation).model_validate(e.artillery).model_dump())
        rolls.check_artillery(art)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise FormatError(f"{src}: [artillery] field {'.'.join(str(p) for p in err['loc'])!r}: {err['msg']}") from None
    except KassenError as exc:
        raise FormatError(f"{src}: [artillery] {exc}") from None
    tp = _troop(e.target, "target", base, src)
    st = _situation(e.target, "target", src, tp)
    ip = rolls.plan_impact(art)
    io = rolls.impact_odds(ip)
    from kassen.rulesets.kensei.data import load_tables

    t = load_tables()
    impact = {"plan": ip.to_json(), "successes": {str(k): {"p": str(v), "float": float(v)} for k, v in sorted(io.items())},
              "effects": {str(k): rolls.impact_effect(t, ip.impact, k) for k in sorted(io)}}
    dmg = counting.odds(rolls.plan_artillery_damage(art.ammunition, tp, st, e.affected, e.fire_template), budget)
    return {"kind": e.kind, "impact": impact, "a": dmg.to_json()}
