"""ge_dialect/interval_map.py's `assign`, `add` and `unset_bytes` against a byte-by-byte model: random
updates on a small region, the states and the count of nonzero bytes checked after each."""

from __future__ import annotations

import random

import pytest

from ge_dialect.interval_map import IntervalMap

SIZE = 64


def states(m: IntervalMap) -> list[object]:
    out: list[object] = [None] * SIZE
    for s, e, st in m.covered(0, SIZE):
        out[s:e] = [st] * (e - s)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_add_counts_like_bytes(seed: int) -> None:
    rng = random.Random(seed)
    m, model, nonzero = IntervalMap(), [0] * SIZE, 0
    for _ in range(200):
        a = rng.randrange(SIZE)
        b = rng.randrange(a, SIZE + 1)
        d = rng.choice([-1, 1, 2])
        nonzero += m.add(a, b, d)
        for i in range(a, b):
            model[i] += d
        assert [c or 0 for c in states(m)] == model
        assert nonzero == sum(1 for c in model if c)
        lo = rng.randrange(SIZE)
        hi = rng.randrange(lo, SIZE + 1)
        assert m.unset_bytes(lo, hi) == sum(1 for c in model[lo:hi] if not c)
        # touching segments with equal counts are merged: the map stays as small as the counts
        assert not any(
            m.ends[i] == m.starts[i + 1] and m.states[i] == m.states[i + 1] for i in range(len(m.starts) - 1)
        )


@pytest.mark.parametrize("seed", range(4))
def test_assign_is_one_segment(seed: int) -> None:
    rng = random.Random(seed)
    m, model = IntervalMap(), [None] * SIZE
    for k in range(100):
        a = rng.randrange(SIZE)
        b = rng.randrange(a, SIZE + 1)
        if rng.random() < 0.5:
            m.assign(a, b, k)
            model[a:b] = [k] * (b - a)
            assert b == a or m.covered(a, b) == [(a, b, k)]
        else:
            m.update(a, b, lambda st, k=k: (st, k))
            model[a:b] = [(st, k) for st in model[a:b]]
        assert states(m) == model
