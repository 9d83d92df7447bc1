"""Events: every change a player should know of, as JSON and as one English line.

An event is public unless ``visible_to`` names the seats that may see it; the
other seats then see ``redacted`` (or nothing when it is ``None``).

>>> e = Event("draw", {"seat": 0, "card": "Order Two Center"}, "Red draws Order Two Center",
...           visible_to=(0,), redacted=Event("draw", {"seat": 0}, "Red draws a card"))
>>> e.for_seat(0).text
'Red draws Order Two Center'
>>> e.for_seat(1).text
'Red draws a card'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


@dataclass(frozen=True)
class Event:
    """One thing that happened. ``kind`` is a short machine tag, ``text`` the narration."""

    kind: str
    data: JSON = field(default_factory=dict)
    text: str = ""
    visible_to: tuple[int, ...] | None = None
    redacted: Event | None = None

    def for_seat(self, seat: int | None) -> Event | None:
        """What ``seat`` may see of this event (``None`` = a spectator sees public events)."""
        if self.visible_to is None:
            return self
        if seat is not None and seat in self.visible_to:
            return self
        return self.redacted

    def to_json(self) -> JSON:
        out: JSON = {"kind": self.kind, "data": self.data, "text": self.text}
        if self.visible_to is not None:
            out["visible_to"] = list(self.visible_to)
            out["redacted"] = self.redacted.to_json() if self.redacted else None
        return out

    @classmethod
    def from_json(cls, d: JSON) -> Event:
        red = d.get("redacted")
        vis = d.get("visible_to")
        return cls(
            kind=str(d["kind"]),
            data=dict(d.get("data", {})),
            text=str(d.get("text", "")),
            visible_to=tuple(vis) if vis is not None else None,
            redacted=cls.from_json(red) if red else None,
        )

    def public_json(self, seat: int | None) -> JSON | None:
        """The JSON form ``seat`` may see, without visibility bookkeeping."""
        seen = self.for_seat(seat)
        if seen is None:
            return None
        return {"kind": seen.kind, "data": seen.data, "text": seen.text}


def events_for_seat(events: list[Event] | tuple[Event, ...], seat: int | None) -> list[Event]:
    """The events ``seat`` may see, redacted where needed, in order."""
    out: list[Event] = []
    for e in events:
        seen = e.for_seat(seat)
        if seen is not None:
            out.append(seen)
    return out


#: event kinds that report a throw of dice
DICE_EVENTS = frozenset({"roll", "casualty_check", "lack_of_honor", "reroll"})


def rolled_dice(e: Event) -> bool:
    """Whether ``e`` reports chance: a die roll (a known dice kind, or ``faces``) or a random
    pick (``random``). Front ends never undo past one.

    >>> rolled_dice(Event("roll", {"faces": ["c"]})), rolled_dice(Event("move", {"to": "F3"}))
    (True, False)
    """
    return e.kind in DICE_EVENTS or "faces" in e.data or bool(e.data.get("random"))


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word, singular or plural, for narration.

    >>> plural(1, "flag"), plural(2, "flag"), plural(0, "hit"), plural(3, "Victory Banner")
    ('1 flag', '2 flags', '0 hits', '3 Victory Banners')
    """
    return f"{n} {word if n == 1 else (many or word + 's')}"
