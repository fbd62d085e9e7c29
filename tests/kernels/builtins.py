"""Builtins: abs, min, max, int, float, bool, range, len."""
import math
import numpy as np
from numba import njit


# check: b_abs(-5) -> 5
# check: b_abs(7) -> 7
# check: b_abs(-9223372036854775808) -> -9223372036854775808
# check: b_abs(-2.5) -> 2.5
# check: b_abs(-0.0) -> 0.0
# check: b_abs(-math.inf) -> math.inf
# check: b_abs(math.nan) -> math.nan
@njit
def b_abs(x):
    return abs(x)


# check: b_min_max(3, 7) -> (3, 7)
# check: b_min_max(-3, -7) -> (-7, -3)
# Mixed int/float min/max return float64.
# check: b_min_max(1, 2.5) -> (1.0, 2.5)
# check: b_min_max(3, 2.5) -> (2.5, 3.0)
# min/max with nan: the result depends on argument order (same as CPython).
# check: b_min_max(math.nan, 1.0) -> (math.nan, math.nan)
# check: b_min_max(1.0, math.nan) -> (1.0, 1.0)
@njit
def b_min_max(a, b):
    return min(a, b), max(a, b)


# check: b_min_max3(3, 1, 2) -> (1, 3)
# check: b_min_max3(5, 5, 5) -> (5, 5)
# check: b_min_max3(-1, -9, -4) -> (-9, -1)
@njit
def b_min_max3(a, b, c):
    return min(a, b, c), max(a, b, c)


# check: b_clamp(5.5, 0.0, 1.0) -> 1.0
# check: b_clamp(-5.5, 0.0, 1.0) -> 0.0
# check: b_clamp(0.25, 0.0, 1.0) -> 0.25
@njit
def b_clamp(x, lo, hi):
    return max(lo, min(x, hi))


# int() truncates toward zero.
# check: b_int(2.7) -> 2
# check: b_int(-2.7) -> -2
# check: b_int(-0.5) -> 0
# check: b_int(1e18) -> 1000000000000000000
# check: b_int(True) -> 1
# check: b_int(False) -> 0
@njit
def b_int(x):
    return int(x)


# check: b_float(3) -> 3.0
# check: b_float(-9007199254740993) -> -9007199254740992.0
# check: b_float(0) -> 0.0
@njit
def b_float(n):
    return float(n)


# check: b_float_div(7) -> 3.5
# check: b_float_div(-1) -> -0.5
@njit
def b_float_div(n):
    return float(n) / 2


# check: b_bool(0) -> False
# check: b_bool(-3) -> True
# check: b_bool(0.0) -> False
# check: b_bool(math.nan) -> True
@njit
def b_bool(x):
    return bool(x)


# check: b_range_len(np.zeros(6)) -> 6
# check: b_range_len(np.zeros((4, 9))) -> 4
@njit
def b_range_len(a):
    c = 0
    for _ in range(len(a)):
        c += 1
    return c


# check: b_minmax_array(np.array([3.0, -1.0, 8.5, 2.0])) -> (-1.0, 8.5)
# check: b_minmax_array(np.array([4.0])) -> (4.0, 4.0)
@njit
def b_minmax_array(a):
    lo = a[0]
    hi = a[0]
    for i in range(1, len(a)):
        lo = min(lo, a[i])
        hi = max(hi, a[i])
    return lo, hi


# check: b_abs_diff_sum(np.array([1, 5, 2, 8])) -> 13
# check: b_abs_diff_sum(np.array([3])) -> 0
@njit
def b_abs_diff_sum(a):
    s = 0
    for i in range(1, len(a)):
        s += abs(a[i] - a[i - 1])
    return s


# check: b_round_half_away(2.5) -> 3
# check: b_round_half_away(-2.5) -> -3
# check: b_round_half_away(1.4) -> 1
@njit
def b_round_half_away(x):
    # int(x + 0.5) style rounding built from int/abs, no round() builtin
    r = int(abs(x) + 0.5)
    return r if x >= 0.0 else -r
