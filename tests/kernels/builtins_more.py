"""Python's numeric builtins as Numba compiles them: round (ties to even; with ndigits by
Numba's algorithm), divmod, pow, the int/float/bool constructors, and sum/min/max over
tuples."""
import math
import numpy as np
from numba import njit


# check: b_round(2.5) -> 2
# check: b_round(-2.5) -> -2
# check: b_round(3.5) -> 4
# check: b_round(-0.4) -> 0
# check: b_round(1000000000000000.5) -> 1000000000000000
# check: b_round(7) -> 7
# check: b_round(True) -> 1
# check: b_round(np.float32(3.5)) -> 4
# check: b_round(np.int32(-3)) -> -3
@njit
def b_round(x):
    return round(x)


# check: b_round_ndigits(2.675, 2) -> 2.68
# check: b_round_ndigits(0.125, 2) -> 0.12
# check: b_round_ndigits(25.0, -1) -> 20.0
# check: b_round_ndigits(35.0, -1) -> 40.0
# check: b_round_ndigits(-1.23456, 3) -> -1.235
# check: b_round_ndigits(1.5, 400) -> 1.5
# check: b_round_ndigits(1.5, -400) -> math.nan
# check: b_round_ndigits(0.0, 400) -> math.nan
# check: b_round_ndigits(1e300, 30) -> 1e+300
# check: b_round_ndigits(123456789.123456789, 25) -> 123456789.12345679
# check: b_round_ndigits(math.inf, 2) -> math.inf
# check: b_round_ndigits(math.nan, 2) -> math.nan
# check: b_round_ndigits(7, 2) -> 7.0
# check: b_round_ndigits(25, -1) -> 20.0
# check: b_round_ndigits(2.5, np.int32(0)) -> 2.0
@njit
def b_round_ndigits(x, n):
    return round(x, n)


# check: b_divmod(-7, 2) -> (-4, 1)
# check: b_divmod(7, -2) -> (-4, -1)
# check: b_divmod(np.int32(7), np.int32(2)) -> (3, 1)
# check: b_divmod(-7.5, 2.0) -> (-4.0, 0.5)
# check: b_divmod(7.5, -2.0) -> (-4.0, -0.5)
# check: b_divmod(7, 2.5) -> (2.0, 2.0)
# check: b_divmod(True, True) -> (1, 0)
# check: b_divmod(7, 0) raises ZeroDivisionError
# check: b_divmod(7.5, 0.0) raises ZeroDivisionError
@njit
def b_divmod(a, b):
    return divmod(a, b)


# check: b_pow(2, 10) -> 1024
# check: b_pow(2, -1) -> 0
# check: b_pow(-1, -3) -> -1
# check: b_pow(2.0, 0.5) -> 1.4142135623730951
# check: b_pow(2.5, -2) -> 0.16
# check: b_pow(True, 2) -> 1
# check: b_pow(0, -1) raises ZeroDivisionError
@njit
def b_pow(a, b):
    return pow(a, b)


# check: b_constructors(3.9) -> (3, 3.9, True, True, 13)
# check: b_constructors(-3.9) -> (-3, -3.9, True, True, -13)
# check: b_constructors(0.0) -> (0, 0.0, False, False, 0)
# check: b_constructors(-0.0) -> (0, -0.0, False, False, 0)
@njit
def b_constructors(x):
    return int(x), float(x), bool(x), bool(-x), int(x * 10.0) // 3


# check: b_constructors_int(0) -> (0, 0.0, False)
# check: b_constructors_int(-5) -> (-5, -5.0, True)
@njit
def b_constructors_int(n):
    return int(n), float(n), bool(n)


# check: b_sum_tuple(1, 2, 3) -> 6
# check: b_sum_tuple(1, 2.5, 3) -> 6.5
# check: b_sum_tuple(True, True, False) -> 2
# check: b_sum_tuple(np.float32(1.5), np.float32(2.25), np.float32(0.125)) -> 3.875
@njit
def b_sum_tuple(a, b, c):
    return sum((a, b, c))


# check: b_sum_start(1, 2) -> (13, 3.5)
# check: b_sum_start(1.5, 2) -> (13.5, 4.0)
@njit
def b_sum_start(a, b):
    t = (a, b)
    return sum(t, 10), sum(t, 0.5)


# check: b_min_max_tuple(1, 5.5, 3) -> (5.5, 1.0, 1, 1.0)
# check: b_min_max_tuple(math.nan, 1.0, 2.0) -> (math.nan, math.nan, math.nan, math.nan)
# check: b_min_max_tuple(1.0, math.nan, 2.0) -> (2.0, 1.0, 1.0, 1.0)
# check: b_min_max_tuple(np.int32(4), np.int32(-2), np.int32(9)) -> (9, -2, 4, -2)
# check: b_min_max_tuple(True, False, True) -> (True, False, True, False)
@njit
def b_min_max_tuple(a, b, c):
    t = (a, b, c)
    return max(t), min(t), max((a,)), min((a, b))


# check: b_clamp(5.0, 0.0, 1.0) -> (1.0, 1.0)
# check: b_clamp(-2.0, 0.0, 1.0) -> (0.0, 0.0)
# check: b_clamp(0.25, 0.0, 1.0) -> (0.25, 0.2)
@njit
def b_clamp(x, lo, hi):
    # A typical use: clamping with builtins and rounding to a grid.
    return round(min(max(x, lo), hi) * 8.0) / 8.0, round(max(lo, min(hi, x)), 1)


# The float32 forms of round, divmod, pow, max and min: each result stays float32 (adding or
# multiplying a float32 keeps the type, so a float64 result would show in the low digits).
# check: b_float32(np.float32(2.25), np.float32(2.0), 1) -> (2.200000047683716, 1.0, 0.5, 2.25, 2.375, 6.0)
# check: b_float32(np.float32(25.0), np.float32(2.0), -1) -> (20.0, 12.0, 2.0, 0.03999999910593033, 25.125, 6.0)
# check: b_float32(np.float32(0.1), np.float32(2.0), 3) -> (0.10000000149011612, 0.0, 0.20000000298023224, 0.0010000000474974513, 2.125, 0.30000001192092896)
# check: b_float32(np.float32(-7.5), np.float32(2.0), 0) -> (-8.0, -4.0, 1.0, 1.0, 2.125, -22.5)
# check: b_float32(np.float32(1.5), np.float32(2.25), 3) -> (1.5, 0.0, 3.0, 3.375, 2.375, 4.5)
@njit
def b_float32(x, y, n):
    q, r = divmod(x, y)
    return (round(x, n) + np.float32(0.0), q + np.float32(0.0), r * np.float32(2.0),
            pow(x, n) + np.float32(0.0), max((x, y)) + np.float32(0.125), min(x, y) * np.float32(3.0))


@njit
def getattr_literal(a):
    # getattr with a literal name is the attribute
    return getattr(a, "ndim") + getattr(a, "size") + getattr(np, "pi")


# check: getattr_literal(np.zeros((2, 3))) -> 11.141592653589793


@njit
def getattr_default(a, fallback):
    # an attribute arrays do not have gives the default
    return getattr(a, "no_such_attribute", fallback)


# check: getattr_default(np.zeros(2), 7) -> 7
