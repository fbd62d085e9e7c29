"""Floating point arithmetic, float32/float64 promotion, inf and nan."""
import math
import numpy as np
from numba import njit


# check: add_float(0.1, 0.2) -> 0.30000000000000004
# check: add_float(1e308, 1e308) -> math.inf
# check: add_float(-2.5, 2.5) -> 0.0
@njit
def add_float(x, y):
    return x + y


# check: mul_sub_float(1.5, 2.0, 0.25) -> 2.75
# check: mul_sub_float(-3.0, 0.1, 7.0) -> -7.3
@njit
def mul_sub_float(x, y, z):
    return x * y - z


# check: div_float(1.0, 3.0) -> 0.3333333333333333
# check: div_float(-7.5, 2.5) -> -3.0
# check: div_float(1.0, 0.0) raises ZeroDivisionError
# check: div_float(0.0, 0.0) raises ZeroDivisionError
@njit
def div_float(x, y):
    return x / y


# check: div_by_inf(5.0, math.inf) -> 0.0
# check: div_by_inf(-5.0, math.inf) -> -0.0
# check: div_by_inf(math.inf, math.inf) -> math.nan
@njit
def div_by_inf(x, y):
    return x / y


# check: inf_arith(1.0) -> math.nan
# check: inf_arith(-1.0) -> math.nan
@njit
def inf_arith(s):
    big = s * math.inf
    return big - big


# check: nan_propagates(math.nan, 1.0) -> math.nan
# check: nan_propagates(2.0, 3.0) -> 7.0
@njit
def nan_propagates(x, y):
    return x * y + 1.0


# float32 times a float64 literal gives float64.
# check: f32_times_lit(np.float32(1.5)) -> 1.6500000000000001
# check: f32_times_lit(np.float32(0.1)) -> 0.11000000163912774
# check: f32_times_lit(np.float32(-2.0)) -> -2.2
@njit
def f32_times_lit(x):
    return x * 1.1


# float32 op float32 stays float32 (rounded), returned as a Python float.
# check: f32_mul_f32(np.float32(1.1), np.float32(3.0)) -> 3.3000001907348633
# check: f32_mul_f32(np.float32(0.1), np.float32(0.1)) -> 0.010000000707805157
@njit
def f32_mul_f32(x, y):
    return x * y


# check: f32_accumulate(np.float32(0.1), 10) -> 1.0000001192092896
# check: f32_accumulate(np.float32(0.5), 4) -> 2.0
# check: f32_accumulate(np.float32(1.0), 0) -> 0.0
@njit
def f32_accumulate(step, n):
    acc = np.float32(0.0)
    for _ in range(n):
        acc += step
    return acc


# check: f64_accumulate(0.1, 10) -> 0.9999999999999999
# check: f64_accumulate(0.5, 4) -> 2.0
@njit
def f64_accumulate(step, n):
    acc = 0.0
    for _ in range(n):
        acc += step
    return acc


# check: unary_float(2.5) -> 2.5
# check: unary_float(-0.0) -> 0.0
# check: unary_float(math.inf) -> math.nan
@njit
def unary_float(x):
    return -x + (+x) * 2.0


# check: aug_float_ops(10.0, 4.0) -> 4.0
# check: aug_float_ops(-3.5, 2.0) -> 36.0
# check: aug_float_ops(1.0, 0.5) -> 0.0
@njit
def aug_float_ops(x, y):
    z = x
    z += y
    z -= 0.5
    z *= y
    z /= 4.0
    z //= 1.5
    z %= 7.0
    z **= 2.0
    return z


# check: horner(2.0) -> 3.75
# check: horner(-1.5) -> -15.5
# check: horner(0.0) -> -1.25
@njit
def horner(x):
    return ((2.0 * x - 3.0) * x + 0.5) * x - 1.25


# check: mean3(1.0, 2.0, 4.0) -> 2.3333333333333335
# check: mean3(-1.0, 0.0, 1.0) -> 0.0
@njit
def mean3(a, b, c):
    return (a + b + c) / 3


# check: int_plus_float(3, 0.25) -> 3.25
# check: int_plus_float(-3, 0.25) -> -2.75
@njit
def int_plus_float(n, x):
    return n + x
