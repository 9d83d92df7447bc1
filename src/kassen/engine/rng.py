"""A small seeded random generator whose whole state is one integer.

The game state owns it, so the same seed and actions always replay identically,
and the state (with its generator) round-trips through JSON.

>>> rng = Rng(42)
>>> a = [rng.randbelow(6) for _ in range(5)]
>>> rng2 = Rng(42)
>>> a == [rng2.randbelow(6) for _ in range(5)]
True
>>> Rng(42).next64() == _splitmix64_reference(42)[1]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

from mypy_extensions import i64

T = TypeVar("T")
_MASK = (1 << 64) - 1
_TWO64 = 1 << 64
#: the rejection limit of ``randbelow(n)`` on one integer, for small n
_LIMITS: tuple[int, ...] = tuple(_TWO64 - _TWO64 % n if n else 0 for n in range(256))
#: a 32-bit word's mask, and 2**32
_M32: Final = 0xFFFFFFFF
_TWO32: Final = 0x100000000
#: ``randbelow(n)`` for n up to this runs on the 32-bit words (products stay below 2**63)
_SMALL: Final = 1 << 30


def _splitmix64_reference(state: int) -> tuple[int, int]:
    """SplitMix64 on Python integers: (next state, output). The definition the words follow."""
    s = (state + 0x9E3779B97F4A7C15) & _MASK
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return s, z ^ (z >> 31)


def _compiled() -> bool:
    """Whether this module runs compiled (its functions then have no Python code object)."""
    return not hasattr(_splitmix64_reference, "__code__")


#: compiled: the 32-bit words on native integers; pure Python: one big-integer step is cheaper
#: there than the ~40 operations on words (the same numbers either way: tests/engine)
_NATIVE: Final = _compiled()


class Rng:
    """SplitMix64: fast, statistically sound for games, and trivially serializable.

    The 64-bit state is held as two 32-bit words (``i64``: native integers in the compiled
    build, plain ints in pure Python). Compiled, ``randbelow`` runs on the words: every
    intermediate value is non-negative and below 2**63, so no operation overflows and every
    right shift is logical, and no big integer is allocated. Pure Python draws on one integer
    (cheaper there). Both give the numbers of :func:`_splitmix64_reference`.
    """

    __slots__ = ("_hi", "_lo")

    def __init__(self, seed: int) -> None:
        s = seed & _MASK
        self._hi: i64 = s >> 32
        self._lo: i64 = s & _M32

    def __reduce__(self) -> tuple[type[Rng], tuple[int]]:
        """Pickled and copied as ``Rng(state)`` (the compiled class is made only through ``__init__``):
        the research envs' checkpoints and their players' generators (issue 34)."""
        return (Rng, (self.state,))

    @property
    def state(self) -> int:
        """The whole state as one integer in ``range(2**64)`` (what saves store)."""
        hi: int = self._hi
        lo: int = self._lo
        return (hi << 32) | lo

    def next64(self) -> int:
        """Advance and return 64 random bits."""
        s, z = _splitmix64_reference(self.state)
        self._hi = s >> 32
        self._lo = s & _M32
        return z

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        if _NATIVE and n <= _SMALL:
            return self._below_words(n)
        # on one Python integer: any n, and cheaper in pure Python than the words
        limit = _LIMITS[n] if n < 256 else _TWO64 - _TWO64 % n
        hi: int = self._hi  # ints, not i64: the shift below would overflow a native word
        lo: int = self._lo
        s = (hi << 32) | lo
        while True:
            s = (s + 0x9E3779B97F4A7C15) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                self._hi = s >> 32
                self._lo = s & _M32
                return z % n

    def _below_words(self, n: int) -> int:
        """``randbelow`` on the 32-bit words, no big integers (0 < n <= 2**30)."""
        m = i64(n)
        t = _TWO32 % m
        # reject z >= 2**64 - r (r = 2**64 % n < n <= 2**30): the high word all ones, the low >= cut
        cut = _TWO32 - t * t % m
        sh = self._hi
        sl = self._lo
        while True:
            # s += 0x9E3779B97F4A7C15
            sl += 0x7F4A7C15
            sh = (sh + 0x9E3779B9 + (sl >> 32)) & _M32
            sl &= _M32
            # z = s ^ (s >> 30)
            zh = sh ^ (sh >> 30)
            zl = sl ^ (((sh << 2) & _M32) | (sl >> 30))
            # z *= 0xBF58476D1CE4E5B9 (mod 2**64): high word 0xBF58476D = 0xBF58 << 16 | 0x476D
            p = zl * 0x1CE4E5B9
            zh = ((p >> 32) + zh * 0x1CE4E5B9 + (((zl * 0xBF58) & 0xFFFF) << 16) + zl * 0x476D) & _M32
            zl = p & _M32
            # z ^= z >> 27
            zl ^= ((zh << 5) & _M32) | (zl >> 27)
            zh ^= zh >> 27
            # z *= 0x94D049BB133111EB (mod 2**64): high word 0x94D049BB = 0x94D0 << 16 | 0x49BB
            p = zl * 0x133111EB
            zh = ((p >> 32) + zh * 0x133111EB + (((zl * 0x94D0) & 0xFFFF) << 16) + zl * 0x49BB) & _M32
            zl = p & _M32
            # z ^= z >> 31
            zl ^= ((zh << 1) & _M32) | (zl >> 31)
            zh ^= zh >> 31
            if zh != _M32 or zl < cut:
                self._hi = sh
                self._lo = sl
                return int(((zh % m) * _TWO32 + zl) % m)

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
        out = Rng(0)
        out._hi = self._hi
        out._lo = self._lo
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other._hi == self._hi and other._lo == self._lo

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"
