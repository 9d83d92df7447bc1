"""The pending decisions of C&C Samurai as typed task records.

The state's task stack (``CCState.stack``, run by its specialised task machine) holds
plain JSON objects, as saves, observations and the environments read them; every task
is built as one of these records and every handler gets its own kind, so mypy checks
each field's name and type. A record is a plain ``dict`` at run time (compiled too), in
the field order it is built in: saves stay byte-identical.

Hexes are the board's integers (``hexgrid.Hex``; ``board.NAMES`` names them), never names: a
handler reads a hex as it is. Names are only in JSON (``to_json``/``from_json`` of the state,
``pending_json``), action text and events (:data:`HEX_FIELDS`, :data:`HEX_LIST_FIELDS`).

The kind ``t`` names the handlers (``_legal_combat``, ``_act_combat``...), ``seat``
who decides. Section names refer to the rulebook (seed 000). ``common.as_json`` turns a
record into the stack's JSON type (a no-op). This module is left interpreted in the
compiled build (setup.py): its records keep their field types for introspection.
"""

# no ``from __future__ import annotations``: TypedDict must see ``NotRequired`` at run time
from collections.abc import Callable
from typing import Any, Literal, NotRequired, TypedDict

from kassen.engine.hexgrid import Hex


class PlayTask(TypedDict):
    """Phase 1: ``seat`` plays a Command card."""

    t: Literal["play"]
    seat: int


class OrderTask(TypedDict):
    """Phase 2: ``seat`` orders units and Leaders (``done`` ends)."""

    t: Literal["order"]
    seat: int


class MoveTask(TypedDict):
    """Phase 3: ``seat`` moves its ordered units and Leaders (``end-move`` ends)."""

    t: Literal["move"]
    seat: int


class BattleTask(TypedDict):
    """Phase 4: ``seat`` battles with its ordered units (``end-battle`` ends)."""

    t: Literal["battle"]
    seat: int


class EndTask(TypedDict):
    """Phase 5, end of turn, by ``step``: ``wise`` (Wise Advisor), ``wise-pick``, ``draw``,
    ``keep`` (one of the two cards ``drawn``), ``discard`` (a Dragon card), ``replenish``."""

    t: Literal["end"]
    seat: int
    step: str
    drawn: NotRequired[list[str]]


class CombatTask(TypedDict):
    """One Close or Ranged Combat, by ``step``: ``react`` (First Strike and the Dragon cards of
    the declaration), ``inspire``, ``prep``, ``roll``, ``after_att``, ``after_def``, ``resolve``,
    ``flags`` (Bolster Morale), ``post``, ``hollow``, ``gain`` (gaining ground), ``bonus``,
    ``back`` (battling back). ``att``/``tgt``: hexes; ``atts``: the Levy swarm."""

    t: Literal["combat"]
    seat: int
    #: ``close`` or ``ranged``
    kind: str
    #: ``attack``, ``bonus``, ``back`` or ``first`` (First Strike, Ambush)
    role: str
    step: str
    att: Hex
    att_uid: str
    tgt: Hex
    atts: list[Hex]
    att_uids: list[str]
    tgt_uid: str | None
    tgt_lid: str | None
    #: the hexes of the attackers a Leader inspired
    inspired: list[Hex]
    #: the attackers whose Leader may still inspire them
    insp_queue: NotRequired[list[Hex]]
    first_strike: NotRequired[bool]
    no_back: NotRequired[bool]
    #: Legendary Combat: this bonus close combat is the second
    second_bonus: NotRequired[bool]
    #: Revenge: as many dice as the attacker rolled
    dice_override: NotRequired[int]
    extra_dice: NotRequired[int]
    #: Practice of Aikido
    max_dice: NotRequired[int]
    dice_n: NotRequired[int]
    #: the faces rolled (``Face`` values)
    faces: NotRequired[list[str]]
    flags: NotRequired[int]
    max_ignore: NotRequired[int]
    ignore_why: NotRequired[list[str]]
    #: Bravery, Brave Leader: every flag may be ignored
    ignore_all: NotRequired[bool]
    #: Strike Fear
    double_flags: NotRequired[bool]
    #: Spirit of Hachiman
    reroll: NotRequired[bool]
    #: Revenge was played on this (finished) combat
    revenge: NotRequired[bool]


class RetreatTask(TypedDict):
    """Retreat: unit ``uid`` at ``at`` has ``left`` hexes to go, ``moved`` so far (``leader``: with
    its attached Leader, for the Honor & Fortune cost); ``by``: the side that made it retreat."""

    t: Literal["retreat"]
    seat: int
    uid: str
    at: Hex
    left: int
    moved: int
    leader: bool
    by: int


class LeaderRetreatTask(TypedDict):
    """Combat Against a Leader Alone in a Hex: ``lid`` at ``at`` retreats or commits seppuku."""

    t: Literal["lretreat"]
    seat: int
    lid: str
    at: Hex


class LackOfHonorTask(TypedDict):
    """Lack of Honor: the ``faces`` still to apply near ``origin`` (``uid``/``symbol``: the
    retreating unit, hit first by its own symbol; ``lid``: a Leader a sword kills)."""

    t: Literal["loh"]
    seat: int
    faces: list[str]
    origin: Hex
    uid: str | None
    lid: str | None
    symbol: str | None


class PickTask(TypedDict):
    """Leader Seppuku: ``seat`` picks one of ``victim``'s face-down Command cards (``perm``)."""

    t: Literal["pick"]
    seat: int
    victim: int
    perm: list[str]


class DragonTask(TypedDict):
    """A Dragon card window ``w`` (dragons.WINDOWS) asked of ``seat``; the ``insult`` window
    carries the Leader ``lid`` that moved ``frm`` -> ``to`` (with unit ``uid``)."""

    t: Literal["dragon"]
    seat: int
    w: str
    lid: NotRequired[str]
    frm: NotRequired[Hex]
    to: NotRequired[Hex]
    uid: NotRequired[str | None]


class TurncoatTask(TypedDict):
    """Turncoat: ``seat`` decides whether unit ``uid`` at ``hex`` leaves ``owner`` for ``player``."""

    t: Literal["turncoat"]
    seat: int
    hex: Hex
    uid: str
    player: int
    owner: int


class DragonLackOfHonorTask(TypedDict):
    """Lack of Honor from Dragon Card Play: each symbol of ``faces`` costs a block of a unit of
    ``seat``'s choice (``by``: the side credited, ``why``: the card)."""

    t: Literal["dloh"]
    seat: int
    faces: list[str]
    by: int
    why: str


CCTask = (PlayTask | OrderTask | MoveTask | BattleTask | EndTask | CombatTask | RetreatTask | LeaderRetreatTask
          | LackOfHonorTask | PickTask | DragonTask | TurncoatTask | DragonLackOfHonorTask)

#: the task kinds: the turn's phases in order, then the steps inside a combat, the cards' windows
KINDS = ("play", "order", "move", "battle", "end", "combat", "retreat", "lretreat", "loh", "pick", "dragon",
         "turncoat", "dloh")

#: the fields of a task that hold one hex, and those that hold a list of hexes
HEX_FIELDS = ("att", "tgt", "at", "origin", "frm", "to", "hex")
HEX_LIST_FIELDS = ("atts", "inspired", "insp_queue")


def _map_hexes(task: dict[str, Any], f: Callable[[Any], Any]) -> dict[str, Any]:
    out = dict(task)
    for k in HEX_FIELDS:
        v = out.get(k)
        if v is not None:
            out[k] = f(v)
    for k in HEX_LIST_FIELDS:
        if k in out:
            out[k] = [f(h) for h in out[k]]
    return out


def task_json(task: dict[str, Any], name: Callable[[Hex], str]) -> dict[str, Any]:
    """The task as JSON: its hexes named (a new dict; the task is not changed)."""
    return _map_hexes(task, name)


def task_from_json(d: dict[str, Any], parse: Callable[[str], Hex]) -> dict[str, Any]:
    """A task read from JSON (:func:`task_json`'s form): its hex names parsed."""
    return _map_hexes(d, parse)
