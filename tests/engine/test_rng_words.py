"""The generator on 32-bit words (issue 15) gives SplitMix64's numbers, rejections included.

Compared with SplitMix64 written here on Python integers; these tests run in whichever build
is installed, so in the compiled build they check the native words.
"""

from __future__ import annotations

import random

import pytest

from kassen.engine.rng import Rng

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
C1, C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def _mix(s: int) -> int:
    z = ((s ^ (s >> 30)) * C1) & MASK
    z = ((z ^ (z >> 27)) * C2) & MASK
    return z ^ (z >> 31)


def _unxorshift(z: int, k: int) -> int:
    x = z
    for _ in range(64 // k + 1):
        x = z ^ (x >> k)
    return x


def _unmix(z: int) -> int:
    z = _unxorshift(z, 31)
    z = (z * pow(C2, -1, 1 << 64)) & MASK
    z = _unxorshift(z, 27)
    z = (z * pow(C1, -1, 1 << 64)) & MASK
    return _unxorshift(z, 30)


def _below(state: int, n: int) -> tuple[int, int]:
    """(value, next state) of randbelow(n) on Python integers."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        state = (state + GOLDEN) & MASK
        z = _mix(state)
        if z < limit:
            return z % n, state


def _state_before(output: int) -> int:
    """The state whose next output is ``output``."""
    return (_unmix(output) - GOLDEN) & MASK


def test_unmix_inverts_the_output_function():
    r = random.Random(3)
    for _ in range(200):
        s = r.getrandbits(64)
        assert _unmix(_mix(s)) == s


@pytest.mark.parametrize("seed", [0, 1, 42, MASK, -5, 3 << 70, 0xFFFFFFFF, 1 << 32])
def test_randbelow_and_next64_give_splitmix64(seed: int):
    rng, state = Rng(seed), seed & MASK
    assert rng.state == state
    r = random.Random(seed & 0xFFFF)
    for k in range(400):
        n = r.choice([1, 2, 6, 7, 255, 256, 1000, (1 << 30) - 1, 1 << 30, (1 << 30) + 1, 1 << 40, 3 << 62,
                      MASK])
        if k % 7 == 0:
            state = (state + GOLDEN) & MASK
            assert rng.next64() == _mix(state)
        value, state = _below(state, n)
        assert rng.randbelow(n) == value and rng.state == state
    assert rng.copy() == rng and Rng(rng.state) == rng and hash(Rng(rng.state)) == hash(rng)


@pytest.mark.parametrize("n", [3, 6, 7, 1000, (1 << 30) - 1, 1 << 30])
def test_the_words_reject_what_the_integers_reject(n: int):
    r = (1 << 64) % n
    for low in {2**32 - r, 2**32 - 1, 2**32 - r - 1} - {2**32}:
        z = (0xFFFFFFFF << 32) | low
        start = _state_before(z)
        value, after = _below(start, n)
        rejected = z >= (1 << 64) - r
        assert after == (start + GOLDEN * (2 if rejected else 1)) & MASK
        words, ints = Rng(start), Rng(start)
        assert words._below_words(n) == value and words.state == after
        assert ints.randbelow(n) == value and ints.state == after


def test_the_words_match_the_integers_on_many_draws():
    rng, state = Rng(7), 7
    r = random.Random(11)
    for k in range(20000):
        n = r.randrange(1, (1 << 30) + 1) if k % 2 else r.randrange(1, 300)
        value, state = _below(state, n)
        assert rng._below_words(n) == value and rng.state == state


def test_a_generator_pickles_and_copies_with_its_state():
    """issue 34: checkpoints of the research envs pickle the players' generators (the compiled class
    is made only through __init__, so it pickles as Rng(state))."""
    import copy
    import pickle

    r = Rng(2**63 + 12345)
    r.next64()
    want = [Rng(r.state).randbelow(97) for _ in range(1)]
    for twin in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r), copy.copy(r)):
        assert type(twin) is Rng and twin.state == r.state
        assert [twin.randbelow(97)] == want
