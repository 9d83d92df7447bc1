"""The Commands & Colors battle die: six faces, each 1/6.

>>> from kassen.engine.rng import Rng
>>> roll_dice(Rng(1), 3)  # doctest: +SKIP
>>> Face.parse("x") is Face.SWORDS
True
>>> [f.letter for f in Face]
['c', 't', 's', 'f', 'h', 'x']
"""

from __future__ import annotations

from enum import Enum

from kassen.engine.errors import FormatError
from kassen.engine.rng import Rng


class Face(Enum):
    """A face of the battle die. The value is its JSON name; ``letter`` its notation."""

    CIRCLE = "circle"
    TRIANGLE = "triangle"
    SQUARE = "square"
    FLAG = "flag"
    HONOR = "honor"
    SWORDS = "swords"

    @property
    def letter(self) -> str:
        return _LETTERS[self]

    @property
    def is_unit_symbol(self) -> bool:
        return self in (Face.CIRCLE, Face.TRIANGLE, Face.SQUARE)

    @property
    def label(self) -> str:
        return _LABELS[self]

    @classmethod
    def parse(cls, text: str) -> Face:
        """Read a face from its letter (``c t s f h x``) or its name."""
        t = text.strip().lower()
        for face in cls:
            if t in (face.value, face.letter):
                return face
        raise FormatError(
            f"{text!r} is not a die face; use one of c t s f h x "
            "(circle, triangle, square, flag, honor, swords)"
        )


_LETTERS = {
    Face.CIRCLE: "c",
    Face.TRIANGLE: "t",
    Face.SQUARE: "s",
    Face.FLAG: "f",
    Face.HONOR: "h",
    Face.SWORDS: "x",
}
_LABELS = {
    Face.CIRCLE: "green circle",
    Face.TRIANGLE: "blue triangle",
    Face.SQUARE: "red square",
    Face.FLAG: "flag",
    Face.HONOR: "Honor & Fortune",
    Face.SWORDS: "crossed swords",
}
FACES: tuple[Face, ...] = tuple(Face)
#: a face by its JSON name: ``Face(value)`` without the enum's interpreted ``__call__``
FACE_OF: dict[str, Face] = {f.value: f for f in FACES}


def face_values(faces: list[Face]) -> list[str]:
    """The JSON names of ``faces`` (``f.value`` without the enum's interpreted property)."""
    return [f._value_ for f in faces]
FACE_PROBABILITY = 1 / 6


def roll_die(rng: Rng) -> Face:
    """One die, uniformly over the six faces."""
    return FACES[rng.randbelow(6)]


def parse_faces(text: str) -> list[Face]:
    """Read a list of faces: ``"x,f,s"`` or ``"xfs"`` or ``"swords flag square"``.

    >>> [f.letter for f in parse_faces("x,f s")]
    ['x', 'f', 's']
    >>> [f.letter for f in parse_faces("xfs")]
    ['x', 'f', 's']
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    if len(parts) == 1 and len(parts[0]) > 1 and all(ch in "ctsfhx" for ch in parts[0].lower()):
        parts = list(parts[0])
    return [Face.parse(p) for p in parts]
