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

from collections.abc import Callable
from typing import Any

JSON = dict[str, Any]

#: a narration written only when read: a function of no arguments returning the line
LazyText = Callable[[], str]


class Event:
    """One thing that happened. ``kind`` is a short machine tag, ``text`` the narration.

    Immutable (its fields are read-only), compared and shown like the frozen dataclass it
    was. ``text`` may be given as a function of no arguments, called the first time the text
    is read: a state nobody narrates (an AI playout) never formats it. Such a function must
    depend only on values fixed when the event is made.
    """

    __slots__ = ("_kind", "_data", "_text", "_visible_to", "_redacted")

    def __init__(self, kind: str, data: JSON | None = None, text: str | LazyText = "",
                 visible_to: tuple[int, ...] | None = None, redacted: Event | None = None) -> None:
        self._kind = kind
        self._data = {} if data is None else data
        self._text = text
        self._visible_to = visible_to
        self._redacted = redacted

    @property
    def kind(self) -> str:
        return self._kind

    @property
    def data(self) -> JSON:
        return self._data

    @property
    def text(self) -> str:
        t = self._text
        if type(t) is str:
            return t
        t = self._text = t()  # type: ignore[operator]
        return t

    @property
    def visible_to(self) -> tuple[int, ...] | None:
        return self._visible_to

    @property
    def redacted(self) -> Event | None:
        return self._redacted

    def _fields(self) -> tuple[Any, ...]:
        return (self._kind, self._data, self.text, self._visible_to, self._redacted)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Event)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Event(kind={self._kind!r}, data={self._data!r}, text={self.text!r}, "
                f"visible_to={self._visible_to!r}, redacted={self._redacted!r})")

    def __reduce__(self) -> tuple[Any, ...]:
        # the text written out: a lazy one may be a closure, which pickle cannot take
        return (Event, self._fields())

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
