"""Comparisons, chained comparisons, and/or/not with short-circuit, bool ops."""
import math
import numpy as np
from numba import njit


# check: cmp_all(1, 2) -> 1011
# check: cmp_all(2, 2) -> 100110
# check: cmp_all(3, -2) -> 111000
@njit
def cmp_all(a, b):
    r = 0
    if a < b:
        r += 1
    if a <= b:
        r += 10
    if a == b:
        r += 100
    if a != b:
        r += 1000
    if a > b:
        r += 10000
    if a >= b:
        r += 100000
    return r


# check: in_open_range(1, 2, 3) -> True
# check: in_open_range(1, 3, 2) -> False
# check: in_open_range(2, 2, 3) -> False
@njit
def in_open_range(a, b, c):
    return a < b < c


# check: chain4(1, 2, 2, 5) -> True
# check: chain4(1, 2, 3, 3) -> False
# check: chain4(0, 0, 0, 0) -> False
@njit
def chain4(a, b, c, d):
    return a < b <= c < d


# check: chain_mixed(0.5, 1, 2.5) -> True
# check: chain_mixed(1.0, 1, 2.5) -> False
@njit
def chain_mixed(x, n, y):
    return x < n < y


# Helper with a side effect: records that it ran, then returns its value.
# check: mark(np.zeros(3, dtype=np.int64), 1, True) -> True ; arg0 == [0, 1, 0]
# check: mark(np.zeros(2, dtype=np.int64), 0, False) -> False ; arg0 == [1, 0]
@njit
def mark(log, k, value):
    log[k] += 1
    return value


# `and` must not evaluate its right operand when the left one is false.
# check: short_and(np.zeros(2, dtype=np.int64), False, True) -> False ; arg0 == [1, 0]
# check: short_and(np.zeros(2, dtype=np.int64), True, False) -> False ; arg0 == [1, 1]
# check: short_and(np.zeros(2, dtype=np.int64), True, True) -> True ; arg0 == [1, 1]
@njit
def short_and(log, p, q):
    return mark(log, 0, p) and mark(log, 1, q)


# `or` must not evaluate its right operand when the left one is true.
# check: short_or(np.zeros(2, dtype=np.int64), True, False) -> True ; arg0 == [1, 0]
# check: short_or(np.zeros(2, dtype=np.int64), False, False) -> False ; arg0 == [1, 1]
# check: short_or(np.zeros(2, dtype=np.int64), False, True) -> True ; arg0 == [1, 1]
@njit
def short_or(log, p, q):
    return mark(log, 0, p) or mark(log, 1, q)


# Guarded array access: the index check must run first.
# check: safe_positive(np.array([1.0, -2.0, 3.0]), 1) -> False
# check: safe_positive(np.array([1.0, -2.0, 3.0]), 2) -> True
# check: safe_positive(np.array([1.0, -2.0, 3.0]), 7) -> False
@njit
def safe_positive(a, i):
    return i < a.shape[0] and a[i] > 0.0


# `x or y` on ints returns one of the operands, not a bool.
# check: int_or(0, 5) -> 5
# check: int_or(3, 5) -> 3
# check: int_and(0, 5) -> 0
# check: int_and(3, 5) -> 5
@njit
def int_or(a, b):
    return a or b


@njit
def int_and(a, b):
    return a and b


# check: not_ops(0, 0.0) -> 3
# check: not_ops(3, 0.0) -> 2
# check: not_ops(0, -1.5) -> 1
@njit
def not_ops(n, x):
    return (not n) + 2 * (not x)


# check: xor_bool(True, False) -> True
# check: xor_bool(True, True) -> False
@njit
def xor_bool(p, q):
    return (p or q) and not (p and q)


# `~True` is folded by CPython to the int -2 before Numba compiles it.
# check: invert_true_literal() -> -2
@njit
def invert_true_literal():
    return ~True


# ~ on a bool *variable* is a logical not under Numba (Python would give -2 / -1).
# check: invert_bool_var(3) -> False
# check: invert_bool_var(-3) -> True
@njit
def invert_bool_var(n):
    b = n > 0
    return ~b


# check: nan_compares(math.nan) -> 2
# check: nan_compares(1.0) -> 5
@njit
def nan_compares(x):
    r = 0
    if x == x:
        r += 1
    if x != x:
        r += 2
    if x < 0.0 or x >= 0.0:
        r += 4
    return r


# check: cmp_int_float(3, 3.0) -> True
# check: cmp_int_float(3, 3.5) -> False
@njit
def cmp_int_float(n, x):
    return n == x


# check: count_true(True, False, True) -> 2
# check: count_true(False, False, False) -> 0
@njit
def count_true(p, q, r):
    return int(p) + int(q) + int(r)


# check: clamp_flag(5, 0, 10) -> True
# check: clamp_flag(-1, 0, 10) -> False
# check: clamp_flag(10, 0, 10) -> False
@njit
def clamp_flag(x, lo, hi):
    return not (x < lo or x >= hi)
