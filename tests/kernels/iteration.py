"""Iteration: for over 1-D arrays, enumerate, zip, for/while-else, homogeneous tuples.

Numba rejects `reversed` (an untyped global) and iterating a heterogeneous tuple without
`literal_unroll`, so neither is here; twinjit accepts both (tests/iteration_extra.rs).
"""
import numpy as np
from numba import njit

WEIGHTS = (1.0, 2.5, 3.0)


# check: iter_sum(np.array([1.0, 2.5, -0.5])) -> 3.0
# check: iter_sum(np.zeros(0)) -> 0.0
# check: iter_sum(np.array([3, 4], dtype=np.int32)) -> 7.0
@njit
def iter_sum(a):
    s = 0.0
    for x in a:
        s += x
    return s


# check: iter_last(np.array([4, 7, 9])) -> 9
@njit
def iter_last(a):
    x = -1
    for x in a:
        pass
    return x


# check: iter_modify(np.array([1, 2, 3, 4])) -> 16 ; arg0 == [5, 6, 7, 8]
@njit
def iter_modify(a):
    # writes ahead of the iteration are seen by later iterations
    s = 0
    for x in a:
        s += x
        for j in range(len(a)):
            a[j] += 1
    return s


# check: iter_break_continue(np.array([1, -2, 3, 0, 5])) -> 4
@njit
def iter_break_continue(a):
    s = 0
    for x in a:
        if x < 0:
            continue
        if x == 0:
            break
        s += x
    return s


# check: iter_nested(np.array([1.0, 2.0]), np.array([10.0, 20.0, 30.0])) -> 180.0
@njit
def iter_nested(a, b):
    s = 0.0
    for x in a:
        for y in b:
            s += x * y
    return s


# check: enum_weighted(np.array([5.0, 6.0, 7.0])) -> 20.0
# check: enum_weighted(np.zeros(0)) -> 0.0
@njit
def enum_weighted(a):
    s = 0.0
    for i, x in enumerate(a):
        s += i * x
    return s


# check: enum_start(np.array([5, 6, 7]), 10) -> 3318
# check: enum_start(np.array([5, 6, 7]), -3) -> -582
@njit
def enum_start(a, k):
    s = 0
    for i, x in enumerate(a, k):
        s += i * 100 + x
    return s


# check: enum_range(5) -> 190
@njit
def enum_range(n):
    s = 0
    for i, j in enumerate(range(10, 10 + 3 * n, 3)):
        s += i * j
    return s


# check: enum_pair(np.array([2.0, 4.0])) -> 7.0
@njit
def enum_pair(a):
    s = 0.0
    for p in enumerate(a):
        s += p[0] + p[1]
    return s


# check: zip_dot(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])) -> 32.0
# check: zip_dot(np.array([1.0, 2.0, 3.0]), np.array([4.0])) -> 4.0
# check: zip_dot(np.array([1.0]), np.array([4.0, 5.0, 6.0])) -> 4.0
# check: zip_dot(np.zeros(0), np.array([4.0, 5.0, 6.0])) -> 0.0
@njit
def zip_dot(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


# check: zip_range(np.array([7, 8, 9, 10]), 3) -> 26
# check: zip_range(np.array([7, 8]), 5) -> 8
@njit
def zip_range(a, n):
    s = 0
    for i, x in zip(range(n), a):
        s += i * x
    return s


# check: zip_three(np.array([1, 2, 3]), np.array([4, 5]), np.array([6, 7, 8])) -> 94
@njit
def zip_three(a, b, c):
    s = 0
    for x, y, z in zip(a, b, c):
        s += x * y * z
    return s


# check: zip_ranges(4, 6) -> 42
# check: zip_ranges(0, 6) -> 0
@njit
def zip_ranges(n, m):
    s = 0
    for i, j in zip(range(n), range(m, 0, -2)):
        s += i * 10 + j
    return s


# check: enum_zip(np.array([1, 2, 3]), np.array([4, 5, 6])) -> 25
@njit
def enum_zip(a, b):
    s = 0
    for i, (x, y) in enumerate(zip(a, b)):
        s += i * (x + y)
    return s


# check: zip_write(np.array([1.0, 2.0, 3.0]), np.zeros(3)) -> 3 ; arg1 == [2.0, 4.0, 6.0]
@njit
def zip_write(a, out):
    k = 0
    for x, y in zip(a, out):
        out[k] = x * 2 + y
        k += 1
    return k


# check: for_else_find(np.array([3, 5, 7]), 5) -> 1
# check: for_else_find(np.array([3, 5, 7]), 4) -> -1
# check: for_else_find(np.zeros(0, dtype=np.int64), 4) -> -1
@njit
def for_else_find(a, v):
    for i in range(len(a)):
        if a[i] == v:
            r = i
            break
    else:
        r = -1
    return r


# check: for_else_array(np.array([1.0, 2.0, 3.0])) -> 600.0
# check: for_else_array(np.array([1.0, -2.0, 3.0])) -> 1.0
@njit
def for_else_array(a):
    s = 0.0
    for x in a:
        if x < 0:
            break
        s += x
    else:
        s = s * 100
    return s


# check: while_else(10, 3) -> 103
# check: while_else(10, 20) -> -90
# check: while_else(0, 20) -> -100
@njit
def while_else(n, stop):
    i = 0
    found = 0
    while i < n:
        if i == stop:
            found = 1
            break
        i += 1
    else:
        found = -1
    return found * 100 + i


# check: tuple_literal(2.0) -> 12.0
@njit
def tuple_literal(x):
    s = 0.0
    for t in (1.0, 2.5, 3.0):
        s = s * x + t
    return s


# check: tuple_vars(1.5, 2.5, -1.0) -> 9.0
@njit
def tuple_vars(a, b, c):
    s = 0.0
    n = 0
    for t in (a, b, c):
        s += t
        n += 1
    return s * n


# check: tuple_break(4) -> 4
# check: tuple_break(100) -> -13
@njit
def tuple_break(limit):
    s = 0
    for t in (1, 2, 3, 4, 5):
        if t == 2:
            continue
        if s + t > limit:
            break
        s += t
    else:
        s = -s
    return s


# check: tuple_global() -> 128.0
@njit
def tuple_global():
    s = 0.0
    for w in WEIGHTS:
        s = s * 10 + w
    return s
