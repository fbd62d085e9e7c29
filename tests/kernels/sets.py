"""Sets in compiled code, as Numba's: distinct counts, membership, literals and the
operators | & -, add/discard/remove/pop/clear/copy/update/union/intersection/difference,
set(iterable), tuple elements. Iteration follows the set's table (small non-negative
integers ascending, as in Python and Numba)."""

import numpy as np
from numba import njit


@njit
def distinct_count(x):
    # How many distinct values: the commonest use of a set.
    seen = set()
    for v in x:
        seen.add(v)
    return len(seen)


# check: distinct_count(np.array([3, 1, 3, 2, 3, 1])) -> 3


@njit
def first_repeat(x):
    seen = set()
    for i in range(x.shape[0]):
        if x[i] in seen:
            return i
        seen.add(x[i])
    return -1


# check: first_repeat(np.array([5, 2, 7, 2, 5])) -> 3


@njit
def literal_and_ops(k):
    a = {1, 2, 3, 4}
    b = {3, 4, 5}
    u = a | b
    i = a & b
    d = a - b
    return len(u), len(i), len(d), k in a, k in d, sorted(u)


# check: literal_and_ops(3) -> (5, 2, 2, True, False, [1, 2, 3, 4, 5])


@njit
def remove_discard(n):
    s = set()
    for i in range(n):
        s.add(i * 2)
    s.discard(4)
    s.discard(5)
    s.remove(0)
    total = 0
    for v in s:
        total += v
    return len(s), total, 4 in s, 6 in s


# check: remove_discard(6) -> (4, 26, False, True)


@njit
def remove_missing(k):
    s = {1, 2}
    s.remove(k)
    return len(s)


# check: remove_missing(3) raises KeyError: 'set.remove(): key not in set'


@njit
def from_array(x):
    s = set(x)
    t = set([1.5, 2.5])
    return len(s), sorted(s), len(t), 2.5 in t


# check: from_array(np.array([2.0, 1.0, 2.0])) -> (2, [1.0, 2.0], 2, True)


@njit
def comprehension(n):
    s = set([i % 5 for i in range(n)])
    empty = s - s
    return sorted(s), bool(s), bool(empty), len(empty)


# check: comprehension(12) -> ([0, 1, 2, 3, 4], True, False, 0)


@njit
def tuple_elements(pts):
    s = set()
    for i in range(pts.shape[0]):
        s.add((pts[i, 0], pts[i, 1]))
    return len(s), (1, 2) in s, (2, 1) in s


# check: tuple_elements(np.array([[1, 2], [3, 4], [1, 2]])) -> (2, True, False)


@njit
def methods(n):
    a = set()
    for i in range(n):
        a.add(i)
    b = a.copy()
    b.add(100)
    w = set()
    w.add(50)
    w.add(99)
    w.add(1)
    c = a.union(w)
    d = a.intersection(w)
    z = set()
    z.add(0)
    e = a.difference(z)
    a.update([7, 8, 200])
    x = a.pop()
    a.clear()
    return len(b), len(c), len(d), len(e), len(a), x in b


# check: methods(5) -> (6, 7, 1, 4, 0, True)


@njit
def small_ints_order():
    s = {5, 3, 1, 4}
    out = []
    for v in s:
        out.append(v)
    return out


# check: small_ints_order() -> [1, 3, 4, 5]


@njit
def updates_and_relations(n):
    a = set()
    b = set()
    for i in range(n):
        a.add(i)
        b.add(i * 2)
    x = a ^ b
    y = a.symmetric_difference(b)
    c = a.copy()
    c.difference_update(b)
    d = a.copy()
    d.intersection_update(b)
    e = a.copy()
    e.symmetric_difference_update(b)
    small = set()
    small.add(0)
    small.add(2)
    return (sorted(x), len(y), sorted(c), sorted(d), sorted(e), small <= a, small < a, a >= small,
            a > a, a == a.copy(), a != b, small.issubset(b), a.issuperset(small), c.isdisjoint(d))


# check: updates_and_relations(5) -> ([1, 3, 6, 8], 4, [1, 3], [0, 2, 4], [1, 3, 6, 8], True, True, True, False, True, True, True, True, True)


@njit
def update_from_set(n):
    a = set()
    for i in range(n):
        a.add(i)
    b = set()
    b.update(a)
    b.update(np.arange(n, n + 2))
    return len(b), max(b)


# check: update_from_set(4) -> (6, 5)
