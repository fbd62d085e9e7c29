"""Dicts in compiled code, as Numba's typed dict: counting, lookups with defaults, deletion,
tuple and float keys, memo tables, keys/values/items, update/copy/clear, arrays as values, and
many entries (the table grows and deleted entries are dropped). Insertion order is kept."""

import numpy as np
from numba import njit
from numba import types
from numba.typed import Dict


@njit
def word_counts(codes):
    # Counting occurrences: the commonest use of a dict in compiled code.
    counts = {}
    for c in codes:
        if c in counts:
            counts[c] += 1
        else:
            counts[c] = 1
    out = []
    for k, v in counts.items():
        out.append((k, v))
    return out


# check: word_counts(np.array([3, 1, 3, 2, 3, 1])) -> [(3, 3), (1, 2), (2, 1)]


@njit
def histogram_get(x):
    counts = Dict.empty(key_type=types.int64, value_type=types.int64)
    for v in x:
        counts[v] = counts.get(v, 0) + 1
    return len(counts), counts[3], counts.get(99, -1)


# check: histogram_get(np.array([3, 1, 3, 2, 3, 1])) -> (3, 3, -1)


@njit
def literal_lookup(k):
    table = {1: 10.0, 2: 20.0, 5: 50.0}
    total = 0.0
    for key in table:
        total += table[key]
    return table[k], total, len(table), 5 in table, 6 in table


# check: literal_lookup(2) -> (20.0, 80.0, 3, True, False)


@njit
def missing_key(k):
    d = {1: 2}
    return d[k]


# check: missing_key(3) raises KeyError: 3


@njit
def grow_and_delete(n):
    d = {}
    for i in range(n):
        d[i] = i * i
    for i in range(0, n, 2):
        del d[i]
    s = 0
    for k in d:
        s += d[k]
    return len(d), s, d.pop(1), d.pop(1, -7), len(d)


# check: grow_and_delete(10) -> (5, 165, 1, -7, 4)


@njit
def typed_empty(n):
    d = Dict.empty(key_type=types.int64, value_type=types.float64)
    for i in range(n):
        d[i % 3] = d.get(i % 3, 0.0) + 0.5
    return d[0], d[1], d[2] if 2 in d else -1.0


# check: typed_empty(7) -> (1.5, 1.0, 1.0)


PAIR = types.UniTuple(types.int64, 2)


@njit
def tuple_keys(pts):
    seen = Dict.empty(key_type=PAIR, value_type=types.int64)
    for i in range(pts.shape[0]):
        key = (pts[i, 0], pts[i, 1])
        seen.setdefault(key, i)
    return len(seen), seen[(1, 2)], sorted(seen.values())


# check: tuple_keys(np.array([[1, 2], [3, 4], [1, 2], [5, 6], [3, 4]])) -> (3, 0, [0, 1, 3])


@njit
def float_keys(x):
    d = Dict.empty(key_type=types.float64, value_type=types.int64)
    for v in x:
        d[v] = d.get(v, 0) + 1
    return d[0.0], d[1.5], len(d)


# check: float_keys(np.array([0.0, 1.5, 0.0, 1.5, 2.25])) -> (2, 2, 3)


@njit
def memo_fib(n):
    memo = {0: 0, 1: 1}
    for i in range(2, n + 1):
        memo[i] = memo[i - 1] + memo[i - 2]
    return memo[n]


# check: memo_fib(50) -> 12586269025


@njit
def keys_values(n):
    d = {}
    for i in range(n, 0, -1):
        d[i] = float(i) / 2
    ks = list(d.keys())
    vs = list(d.values())
    return ks[0], ks[-1], sum(vs), len(ks)


# check: keys_values(5) -> (5, 1, 7.5, 5)


@njit
def update_copy_clear():
    a = {1: 1.0, 2: 2.0}
    b = {2: 20.0, 3: 30.0}
    a.update(b)
    c = a.copy()
    c[4] = 40.0
    la, lc = len(a), len(c)
    a.clear()
    return la, lc, len(a), a.get(1, -1.0), c[2], bool(a), bool(c)


# check: update_copy_clear() -> (3, 4, 0, -1.0, 20.0, False, True)


@njit
def array_values(n):
    d = {}
    for i in range(n):
        d[i] = np.full(i + 1, float(i))
    t = 0.0
    for k, v in d.items():
        t += v.sum()
    return t


# check: array_values(4) -> 20.0


@njit
def many_entries(n):
    d = {}
    for i in range(n):
        d[i * 7919 % 10007] = i
    for i in range(0, n, 3):
        del d[i * 7919 % 10007]
    s = 0
    for k in d:
        s += k - d[k]
    return len(d), s


# check: many_entries(1000) -> (666, 2986845)


@njit
def churn(n):
    # Entries come and go: the table is rebuilt with the deleted ones dropped, order kept.
    d = {}
    for i in range(n):
        d[i] = i * 2
        if i >= 3:
            del d[i - 3]
    keys = list(d.keys())
    total = 0
    for k in d:
        total += d[k]
    d.clear()
    d[5] = 1
    return keys, total, len(d), d[5]


# check: churn(100) -> ([97, 98, 99], 588, 1, 1)


@njit
def complex_values(a):
    # Complex values, and a loop over a complex array beside the dict's.
    d = {1: 1 + 2j, 2: 3j}
    t = 0j
    for k in d:
        t += d[k]
    for z in a:
        t += z
    return t, d.get(3, 0j)


# check: complex_values(np.array([1 + 2j, 3 - 1j])) -> ((5+6j), 0j)


@njit
def squares_comprehension(n):
    # A dict comprehension with a condition.
    d = {i: i * i for i in range(n) if i % 2 == 1}
    return len(d), d[3], list(d.keys())


# check: squares_comprehension(8) -> (4, 9, [1, 3, 5, 7])


@njit
def from_pairs(keys, values):
    # A dict from pairs: dict(zip(...)), and numba.typed.Dict of the same.
    d = dict(zip(keys, values))
    e = Dict(zip(values, keys))
    return len(d), d[keys[-1]], e[values[0]]


# check: from_pairs(np.array([3, 1, 3, 7]), np.array([0.5, 1.5, 2.5, 3.5])) -> (3, 3.5, 3)
