"""A small seeded random generator whose whole state is one integer.

The game state owns it, so the same seed and actions always replay identically,
and the state (with its generator) round-trips through JSON.

>>> rng = Rng(42)
>>> a = [rng.randbelow(6) for _ in range(5)]
>>> rng2 = Rng(42)
>>> a == [rng2.randbelow(6) for _ in range(5)]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_TWO64 = 1 << 64
#: the rejection limit of ``randbelow(n)`` for small n (two big-integer operations saved a call)
_LIMITS: tuple[int, ...] = tuple(_TWO64 - _TWO64 % n if n else 0 for n in range(256))


class Rng:
    """SplitMix64: fast, statistically sound for games, and trivially serializable."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """Advance and return 64 random bits."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = _LIMITS[n] if n < 256 else _TWO64 - _TWO64 % n
        # next64 written out (the hottest call of every playout): the same numbers
        s = self.state
        while True:
            s = (s + 0x9E3779B97F4A7C15) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                self.state = s
                return z % n

    def choice(self, items: Sequence[T]) -> T:
        """One item, uniformly."""
        return items[self.randbelow(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list holding ``items`` in uniformly random order (Fisher-Yates)."""
        out = list(items)
        randbelow = self.randbelow
        for i in range(len(out) - 1, 0, -1):
            j = randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def copy(self) -> Rng:
        """An independent generator in the same state."""
        return Rng(self.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"
