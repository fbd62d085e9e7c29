"""The math module: functions, constants, and Numba's non-raising domain errors."""
import math
import numpy as np
from numba import njit


# check: m_sqrt(2.0) -> 1.4142135623730951
# check: m_sqrt(0.0) -> 0.0
# check: m_sqrt(-1.0) -> math.nan
# check: m_sqrt(16) -> 4.0
@njit
def m_sqrt(x):
    return math.sqrt(x)


# check: m_exp_log(1.0) -> (1.0, 2.718281828459045)
# check: m_exp_log(0.5) -> (0.5, 1.6487212707001282)
# check: m_exp_log(-2.0) -> (-2.0, 0.1353352832366127)
@njit
def m_exp_log(x):
    return math.log(math.exp(x)), math.exp(x)


# check: m_log(0.0) -> -math.inf
# check: m_log(-1.0) -> math.nan
# check: m_log(math.e) -> 1.0
# check: m_log(math.inf) -> math.inf
@njit
def m_log(x):
    return math.log(x)


# check: m_log2_log10(8.0) -> (3.0, 0.9030899869919435)
# check: m_log2_log10(1000.0) -> (9.965784284662087, 3.0)
# check: m_log2_log10(0.0) -> (-math.inf, -math.inf)
@njit
def m_log2_log10(x):
    return math.log2(x), math.log10(x)


# check: m_trig(0.5) -> (0.479425538604203, 0.8775825618903728, 0.5463024898437905)
# check: m_trig(0.0) -> (0.0, 1.0, 0.0)
# check: m_trig(-1.25) -> (-0.9489846193555862, 0.3153223623952687, -3.0095696738628313)
@njit
def m_trig(x):
    return math.sin(x), math.cos(x), math.tan(x)


# check: m_inverse_trig(0.5) -> (0.5235987755982989, 1.0471975511965979, 0.4636476090008061)
# check: m_inverse_trig(1.0) -> (1.5707963267948966, 0.0, 0.7853981633974483)
# check: m_inverse_trig(2.0) -> (math.nan, math.nan, 1.1071487177940904)
@njit
def m_inverse_trig(x):
    return math.asin(x), math.acos(x), math.atan(x)


# check: m_atan2(1.0, 1.0) -> 0.7853981633974483
# check: m_atan2(1.0, -1.0) -> 2.356194490192345
# check: m_atan2(-0.0, -1.0) -> -3.141592653589793
# check: m_atan2(0.0, 0.0) -> 0.0
@njit
def m_atan2(y, x):
    return math.atan2(y, x)


# check: m_hyperbolic(0.5) -> (0.5210953054937474, 1.1276259652063807, 0.46211715726000974)
# check: m_hyperbolic(0.0) -> (0.0, 1.0, 0.0)
# check: m_hyperbolic(-3.0) -> (-10.017874927409903, 10.067661995777765, -0.9950547536867305)
@njit
def m_hyperbolic(x):
    return math.sinh(x), math.cosh(x), math.tanh(x)


# math.floor and math.ceil return int64 under Numba.
# check: m_floor_ceil(2.5) -> (2, 3)
# check: m_floor_ceil(-2.5) -> (-3, -2)
# check: m_floor_ceil(3.0) -> (3, 3)
# check: m_floor_ceil(-0.1) -> (-1, 0)
@njit
def m_floor_ceil(x):
    return math.floor(x), math.ceil(x)


# check: m_fabs(-3.5) -> 3.5
# check: m_fabs(2) -> 2.0
# check: m_fabs(-math.inf) -> math.inf
@njit
def m_fabs(x):
    return math.fabs(x)


# check: m_pow(2.0, 10.0) -> 1024.0
# check: m_pow(2.0, -0.5) -> 0.7071067811865476
# check: m_pow(-8.0, 0.3333333333333333) -> math.nan
# check: m_pow(0.0, -1.0) -> math.inf
@njit
def m_pow(x, y):
    return math.pow(x, y)


# check: m_hypot(3.0, 4.0) -> 5.0
# check: m_hypot(-5.0, 12.0) -> 13.0
# check: m_hypot(math.inf, math.nan) -> math.inf
@njit
def m_hypot(x, y):
    return math.hypot(x, y)


# check: m_copysign(3.0, -0.0) -> -3.0
# check: m_copysign(-2.0, 1.0) -> 2.0
# check: m_copysign(math.inf, -1.0) -> -math.inf
@njit
def m_copysign(x, y):
    return math.copysign(x, y)


# check: m_classify(1.0) -> (False, False, True)
# check: m_classify(math.nan) -> (True, False, False)
# check: m_classify(math.inf) -> (False, True, False)
# check: m_classify(-math.inf) -> (False, True, False)
@njit
def m_classify(x):
    return math.isnan(x), math.isinf(x), math.isfinite(x)


# check: m_classify_int(7) -> (False, False, True)
# check: m_classify_int(-9223372036854775808) -> (False, False, True)
@njit
def m_classify_int(n):
    return math.isnan(n), math.isinf(n), math.isfinite(n)


# check: m_constants() -> (3.141592653589793, 2.718281828459045, math.inf, -math.inf)
@njit
def m_constants():
    return math.pi, math.e, math.inf, -math.inf


# check: m_nan_const() -> math.nan
@njit
def m_nan_const():
    return math.nan


# check: m_nan_is_nan() -> True
@njit
def m_nan_is_nan():
    x = math.nan
    return x != x and math.isnan(x)


# check: circle_area(1.0) -> 3.141592653589793
# check: circle_area(2.5) -> 19.634954084936208
@njit
def circle_area(r):
    return math.pi * r * r


# check: newton_sqrt(2.0, 20) -> 1.414213562373095
# check: newton_sqrt(9.0, 20) -> 3.0
# check: newton_sqrt(0.25, 3) -> 0.5001524390243902
@njit
def newton_sqrt(x, iters):
    g = x if x > 1.0 else 1.0
    for _ in range(iters):
        g = 0.5 * (g + x / g)
    return g


# check: sigmoid(0.0) -> 0.5
# check: sigmoid(2.0) -> 0.8807970779778823
# check: sigmoid(-800.0) -> 0.0
@njit
def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


# check: gaussian(0.0, 1.0) -> 0.3989422804014327
# check: gaussian(1.5, 0.5) -> 0.008863696823876015
@njit
def gaussian(x, sigma):
    return math.exp(-0.5 * (x / sigma) ** 2) / (sigma * math.sqrt(2.0 * math.pi))


# check: polar_roundtrip(3.0, 4.0) -> (3.0000000000000004, 3.9999999999999996)
# check: polar_roundtrip(-1.0, 0.0) -> (-1.0, 1.2246467991473532e-16)
@njit
def polar_roundtrip(x, y):
    r = math.hypot(x, y)
    t = math.atan2(y, x)
    return r * math.cos(t), r * math.sin(t)


# check: exp_overflow(710.0) -> math.inf
# check: exp_overflow(-1000.0) -> 0.0
@njit
def exp_overflow(x):
    return math.exp(x)


# check: f32_sqrt(np.float32(2.0)) -> 1.4142135381698608
# check: f32_sqrt(np.float32(0.25)) -> 0.5
@njit
def f32_sqrt(x):
    return math.sqrt(x)
