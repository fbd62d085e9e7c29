"""The math module: functions, constants, and Numba's non-raising domain errors."""
import math
import numpy as np
from numba import njit


# Exponents, logarithms and roots, over one set of inputs: zero, negatives, e, the
# infinities, and ints (promoted to float64).
# check: m_exp_log(1.0) -> (1.0, 2.718281828459045, 0.0, 0.0, 0.0, 1.0)
# check: m_exp_log(0.5) -> (0.5, 1.6487212707001282, -0.6931471805599453, -1.0, -0.3010299956639812, 0.7071067811865476)
# check: m_exp_log(-2.0) -> (-2.0, 0.1353352832366127, math.nan, math.nan, math.nan, math.nan)
# check: m_exp_log(2.0) -> (2.0, 7.38905609893065, 0.6931471805599453, 1.0, 0.3010299956639812, 1.4142135623730951)
# check: m_exp_log(0.0) -> (0.0, 1.0, -math.inf, -math.inf, -math.inf, 0.0)
# check: m_exp_log(-1.0) -> (-1.0, 0.36787944117144233, math.nan, math.nan, math.nan, math.nan)
# check: m_exp_log(math.e) -> (2.718281828459045, 15.154262241479262, 1.0, 1.4426950408889634, 0.4342944819032518, 1.6487212707001282)
# check: m_exp_log(8.0) -> (8.0, 2980.9579870417283, 2.0794415416798357, 3.0, 0.9030899869919435, 2.8284271247461903)
# check: m_exp_log(1000.0) -> (math.inf, math.inf, 6.907755278982137, 9.965784284662087, 3.0, 31.622776601683793)
# check: m_exp_log(math.inf) -> (math.inf, math.inf, math.inf, math.inf, math.inf, math.inf)
# check: m_exp_log(16) -> (16.0, 8886110.520507872, 2.772588722239781, 4.0, 1.2041199826559248, 4.0)
# check: m_exp_log(710.0) -> (math.inf, math.inf, 6.565264970035361, 9.471675214392045, 2.8512583487190755, 26.645825188948457)
# check: m_exp_log(-1000.0) -> (-math.inf, 0.0, math.nan, math.nan, math.nan, math.nan)
@njit
def m_exp_log(x):
    return math.log(math.exp(x)), math.exp(x), math.log(x), math.log2(x), math.log10(x), math.sqrt(x)


# sin, cos, tan; asin, acos, atan (nan outside [-1, 1]); sinh, cosh, tanh.
# check: m_trig(0.5) -> ((0.479425538604203, 0.8775825618903728, 0.5463024898437905), (0.5235987755982989, 1.0471975511965979, 0.4636476090008061), (0.5210953054937474, 1.1276259652063807, 0.46211715726000974))
# check: m_trig(0.0) -> ((0.0, 1.0, 0.0), (0.0, 1.5707963267948966, 0.0), (0.0, 1.0, 0.0))
# check: m_trig(-1.25) -> ((-0.9489846193555862, 0.3153223623952687, -3.0095696738628313), (math.nan, math.nan, -0.8960553845713439), (-1.6019190803008256, 1.8884238771610158, -0.8482836399575129))
# check: m_trig(1.0) -> ((0.8414709848078965, 0.5403023058681398, 1.5574077246549023), (1.5707963267948966, 0.0, 0.7853981633974483), (1.1752011936438014, 1.5430806348152437, 0.7615941559557649))
# check: m_trig(2.0) -> ((0.9092974268256817, -0.4161468365471424, -2.185039863261519), (math.nan, math.nan, 1.1071487177940904), (3.626860407847019, 3.7621956910836314, 0.9640275800758169))
# check: m_trig(-3.0) -> ((-0.1411200080598672, -0.9899924966004454, 0.1425465430742778), (math.nan, math.nan, -1.2490457723982544), (-10.017874927409903, 10.067661995777765, -0.9950547536867305))
@njit
def m_trig(x):
    circular = math.sin(x), math.cos(x), math.tan(x)
    inverse = math.asin(x), math.acos(x), math.atan(x)
    hyperbolic = math.sinh(x), math.cosh(x), math.tanh(x)
    return circular, inverse, hyperbolic


# math.floor and math.ceil return int64 under Numba; math.fabs a float64, also of an int.
# check: m_floor_ceil_fabs(2.5) -> (2, 3, 2.5)
# check: m_floor_ceil_fabs(-2.5) -> (-3, -2, 2.5)
# check: m_floor_ceil_fabs(3.0) -> (3, 3, 3.0)
# check: m_floor_ceil_fabs(-0.1) -> (-1, 0, 0.1)
# check: m_floor_ceil_fabs(-3.5) -> (-4, -3, 3.5)
# check: m_floor_ceil_fabs(2) -> (2, 2, 2.0)
@njit
def m_floor_ceil_fabs(x):
    return math.floor(x), math.ceil(x), math.fabs(x)


# atan2(y, x), pow, hypot and copysign over the same pairs of arguments.
# check: m_binary(1.0, 1.0) -> (0.7853981633974483, 1.0, 1.4142135623730951, 1.0)
# check: m_binary(1.0, -1.0) -> (2.356194490192345, 1.0, 1.4142135623730951, -1.0)
# check: m_binary(-0.0, -1.0) -> (-3.141592653589793, -math.inf, 1.0, -0.0)
# check: m_binary(0.0, 0.0) -> (0.0, 1.0, 0.0, 0.0)
# check: m_binary(2.0, 10.0) -> (0.19739555984988075, 1024.0, 10.198039027185569, 2.0)
# check: m_binary(2.0, -0.5) -> (1.8157749899217608, 0.7071067811865476, 2.0615528128088303, -2.0)
# check: m_binary(-8.0, 0.3333333333333333) -> (-1.5291537476963082, math.nan, 8.006941432976209, 8.0)
# check: m_binary(0.0, -1.0) -> (3.141592653589793, math.inf, 1.0, -0.0)
# check: m_binary(3.0, 4.0) -> (0.6435011087932844, 81.0, 5.0, 3.0)
# check: m_binary(-5.0, 12.0) -> (-0.3947911196997615, 244140625.0, 13.0, 5.0)
# check: m_binary(math.inf, math.nan) -> (math.nan, math.nan, math.inf, math.inf)
# check: m_binary(3.0, -0.0) -> (1.5707963267948966, 1.0, 3.0, -3.0)
# check: m_binary(-2.0, 1.0) -> (-1.1071487177940904, -2.0, 2.23606797749979, 2.0)
# check: m_binary(math.inf, -1.0) -> (1.5707963267948966, 0.0, math.inf, -math.inf)
@njit
def m_binary(x, y):
    return math.atan2(x, y), math.pow(x, y), math.hypot(x, y), math.copysign(x, y)


# The classifiers and fabs take any value, ints included.
# check: m_classify_fabs(1.0) -> (False, False, True, 1.0)
# check: m_classify_fabs(math.nan) -> (True, False, False, math.nan)
# check: m_classify_fabs(math.inf) -> (False, True, False, math.inf)
# check: m_classify_fabs(-math.inf) -> (False, True, False, math.inf)
# check: m_classify_fabs(7) -> (False, False, True, 7.0)
# check: m_classify_fabs(-9223372036854775808) -> (False, False, True, 9.223372036854776e+18)
@njit
def m_classify_fabs(x):
    return math.isnan(x), math.isinf(x), math.isfinite(x), math.fabs(x)


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


# check: f32_sqrt(np.float32(2.0)) -> 1.4142135381698608
# check: f32_sqrt(np.float32(0.25)) -> 0.5
@njit
def f32_sqrt(x):
    return math.sqrt(x)
