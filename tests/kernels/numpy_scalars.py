"""NumPy ufuncs applied to scalars, typed as Numba selects their loops (a bool argument of a
float function picks the float32 loop; integer loops keep integers), with NumPy's error
model (no exception on division by zero), and NumPy's constants."""
import math
import numpy
import numpy as np
from numba import njit
from numpy import euler_gamma, minimum, sqrt
from numpy import pi as NP_PI

TWO_PI = 2 * np.pi
GAMMA = np.euler_gamma


# check: np_float_funcs(0.5) -> (0.7071067811865476, 1.6487212707001282, 1.4142135623730951, 0.6487212707001282, 0.4054651081081644, 0.479425538604203, 0.8775825618903728, 0.5463024898437905, 0.4636476090008061, 0.5210953054937474, 1.1276259652063807, 0.46211715726000974, 0.48121182505960347, 0.5)
# check: np_float_funcs(2) -> (1.4142135623730951, 7.38905609893065, 4.0, 6.38905609893065, 1.0986122886681096, 0.9092974268256817, -0.4161468365471424, -2.185039863261519, 1.1071487177940904, 3.626860407847019, 3.7621956910836314, 0.9640275800758169, 1.4436354751788103, 2.0)
# check: np_float_funcs(-0.25) -> (math.nan, 0.7788007830714049, 0.8408964152537145, -0.22119921692859512, -0.2876820724517809, -0.24740395925452294, 0.9689124217106447, -0.25534192122103627, -0.24497866312686414, -0.2526123168081683, 1.0314130998795732, -0.24491866240370913, -0.24746646154726346, 0.25)
@njit
def np_float_funcs(x):
    return (np.sqrt(x), np.exp(x), np.exp2(x), np.expm1(x), np.log1p(x), np.sin(x),
            np.cos(x), np.tan(x), np.arctan(x), np.sinh(x), np.cosh(x), np.tanh(x),
            np.arcsinh(x), np.fabs(x))


# check: np_logs(2.5) -> (0.9162907318741551, 1.3219280948873624, 0.3979400086720376, 1.5811388300841898)
# check: np_logs(0.0) -> (-math.inf, -math.inf, -math.inf, 0.0)
# check: np_logs(-1.0) -> (math.nan, math.nan, math.nan, math.nan)
# check: np_logs(8) -> (2.0794415416798357, 3.0, 0.9030899869919435, 2.8284271247461903)
@njit
def np_logs(x):
    return np.log(x), np.log2(x), np.log10(x), np.sqrt(x)


# check: np_inverse_trig(0.5) -> (0.5235987755982989, 1.0471975511965979, 0.9624236501192069, 0.12565721414045303)
# check: np_inverse_trig(1.0) -> (1.5707963267948966, 0.0, 1.3169578969248166, 0.25541281188299536)
# check: np_inverse_trig(2.0) -> (math.nan, math.nan, 1.762747174039086, 0.5493061443340548)
@njit
def np_inverse_trig(x):
    return np.arcsin(x), np.arccos(x), np.arccosh(x + 1.0), np.arctanh(x / 4.0)


# check: np_float32_funcs(np.float32(1.5)) -> (4.481688976287842, 0.9974949955940247, 0.9162907600402832, 1.2247449159622192, 0.6435011029243469, 2.5, 0.9051482677459717)
# check: np_float32_funcs(np.float32(-0.75)) -> (0.4723665416240692, -0.681638777256012, 0.5596157908439636, 0.8660253882408142, -0.3587706685066223, 2.136000871658325, -0.6351489424705505)
@njit
def np_float32_funcs(x):
    return (np.exp(x), np.sin(x), np.log1p(np.fabs(x)), np.sqrt(np.fabs(x)),
            np.arctan2(x, np.float32(2.0)), np.hypot(x, np.float32(2.0)), np.tanh(x))


# check: np_bool_picks_float32(True) -> (0.8414709568023682, 3.1622776985168457, 0.01745329238474369)
# check: np_bool_picks_float32(False) -> (0.0, 3.0, 0.0)
@njit
def np_bool_picks_float32(b):
    # A bool argument selects the float32 loop: the sum stays float32 only if each term is.
    return np.sin(b) + np.float32(0.0), np.hypot(np.float32(3.0), b), np.deg2rad(b)


# check: np_binary_float(3.0, 4.0) -> (0.6435011087932844, 5.0, 3.0, 4.0)
# check: np_binary_float(-1.0, -0.0) -> (-1.5707963267948966, 1.0, -1.0, -0.0)
# check: np_binary_float(2, -3) -> (2.5535900500422257, 3.605551275463989, -2.0, 3.0)
@njit
def np_binary_float(y, x):
    return np.arctan2(y, x), np.hypot(y, x), np.copysign(y, x), np.copysign(x, y)


# check: np_rounding(2.5) -> (2.0, 3.0, 2.0, 2.0)
# check: np_rounding(-2.5) -> (-3.0, -2.0, -2.0, -2.0)
# check: np_rounding(3.5) -> (3.0, 4.0, 3.0, 4.0)
# check: np_rounding(-0.4) -> (-1.0, -0.0, -0.0, -0.0)
# check: np_rounding(math.inf) -> (math.inf, math.inf, math.inf, math.inf)
# check: np_rounding(np.float32(1.5)) -> (1.0, 2.0, 1.0, 2.0)
# check: np_rounding(np.float32(-2.5)) -> (-3.0, -2.0, -2.0, -2.0)
# NumPy 2 floor/ceil/trunc keep integers; rint gives a float.
# check: np_rounding(7) -> (7, 7, 7, 7.0)
# check: np_rounding(-3) -> (-3, -3, -3, -3.0)
@njit
def np_rounding(x):
    return np.floor(x), np.ceil(x), np.trunc(x), np.rint(x)


# check: np_rounding_int32(np.int32(-9)) -> (-8, -9)
@njit
def np_rounding_int32(n):
    return np.floor(n) + np.int32(1), np.trunc(n)


# check: np_sign(2.5) -> 1.0
# check: np_sign(-0.0) -> -0.0
# check: np_sign(0.0) -> 0.0
# check: np_sign(math.nan) -> math.nan
# check: np_sign(-math.inf) -> -1.0
# check: np_sign(-7) -> -1
# check: np_sign(0) -> 0
# check: np_sign(12) -> 1
# check: np_sign(True) -> 1
@njit
def np_sign(x):
    return np.sign(x)


# check: np_sign_f32(np.float32(-3.5)) -> -0.5
@njit
def np_sign_f32(x):
    return np.sign(x) * np.float32(0.5)


# check: np_min_max(1.0, 2.0) -> (1.0, 2.0, 1.0, 2.0)
# check: np_min_max(math.nan, 1.0) -> (math.nan, math.nan, 1.0, 1.0)
# check: np_min_max(1.0, math.nan) -> (math.nan, math.nan, 1.0, 1.0)
# check: np_min_max(-0.0, 0.0) -> (-0.0, -0.0, -0.0, -0.0)
# check: np_min_max(0.0, -0.0) -> (0.0, 0.0, 0.0, 0.0)
# check: np_min_max(3, -4) -> (-4, 3, -4, 3)
# check: np_min_max(np.int32(3), np.int32(5)) -> (3, 5, 3, 5)
# check: np_min_max(True, False) -> (False, True, False, True)
# check: np_min_max(2, 3.5) -> (2.0, 3.5, 2.0, 3.5)
@njit
def np_min_max(x, y):
    return np.minimum(x, y), np.maximum(x, y), np.fmin(x, y), np.fmax(x, y)


# check: np_minimum_f32(np.float32(0.25), np.float32(-1.5)) -> (-1.375, 0.75)
@njit
def np_minimum_f32(x, y):
    return minimum(x, y) + np.float32(0.125), np.maximum(x, y) * np.float32(3.0)


# check: np_power(2, 10) -> 1024
# check: np_power(3, 39) -> 4052555153018976256
# check: np_power(2, -1) -> 0
# check: np_power(-1, -3) -> -1
# check: np_power(0, -1) -> -9223372036854775808
# check: np_power(np.int32(3), np.int32(19)) -> 1162261467
# check: np_power(2.5, -2) -> 0.16
# check: np_power(0.0, -1.0) -> math.inf
# check: np_power(-8.0, 0.3333333333333333) -> math.nan
# check: np_power(np.float32(2.0), np.float32(0.5)) -> 1.4142135381698608
# check: np_power(np.float32(1.5), np.float32(3.0)) -> 3.375
@njit
def np_power(x, y):
    return np.power(x, y)


# check: np_int_division(-7, 2) -> (1, 1, -4, -3.5, -3.5)
# check: np_int_division(7, -2) -> (-1, -1, -4, -3.5, -3.5)
# check: np_int_division(7, 0) -> (0, 0, 0, math.inf, math.inf)
# check: np_int_division(np.int32(-7), np.int32(2)) -> (1, 1, -4, -3.5, -3.5)
@njit
def np_int_division(a, b):
    return np.mod(a, b), np.remainder(a, b), np.floor_divide(a, b), np.true_divide(a, b), np.divide(a, b)


# check: np_floor_divide_min(-9223372036854775808, -1) -> 0
# check: np_floor_divide_min(np.int32(-2147483648), np.int32(-1)) -> 0
@njit
def np_floor_divide_min(a, b):
    # NumPy's loop gives 0 here (np.mod of the same traps in Numba: not checked).
    return np.floor_divide(a, b)


# check: np_float_division(-7.5, 2.0) -> (0.5, -4.0, -3.75)
# check: np_float_division(7.5, -2.0) -> (-0.5, -4.0, -3.75)
# check: np_float_division(4.0, -2.0) -> (0.0, -2.0, -2.0)
# check: np_float_division(-4.0, 2.0) -> (0.0, -2.0, -2.0)
# check: np_float_division(7.5, 0.0) -> (math.nan, math.inf, math.inf)
# check: np_float_division(-7.5, 0.0) -> (math.nan, -math.inf, -math.inf)
# check: np_float_division(0.0, 0.0) -> (math.nan, math.nan, math.nan)
# check: np_float_division(math.inf, 2.0) -> (math.nan, math.inf, math.inf)
# check: np_float_division(-5.0, math.inf) -> (math.inf, -0.0, -0.0)
# check: np_float_division(7, 2.5) -> (2.0, 2.0, 2.8)
@njit
def np_float_division(a, b):
    return np.mod(a, b), np.floor_divide(a, b), np.true_divide(a, b)


# check: np_division_f32(np.float32(-7.5), np.float32(2.0)) -> (0.5, -4.0, -3.75)
# check: np_division_f32(np.float32(1.0), np.float32(0.0)) -> (math.nan, math.inf, math.inf)
@njit
def np_division_f32(a, b):
    return np.mod(a, b), np.floor_divide(a, b), np.divide(a, b) + np.float32(0.0)


# check: np_unary_int(np.int32(-3)) -> (3, 3, 3, -3, 9)
# check: np_unary_int(-9223372036854775807) -> (9223372036854775807, 9223372036854775807, 9223372036854775807, -9223372036854775807, 1)
# check: np_unary_int(True) -> (True, True, -1, 1, 1)
@njit
def np_unary_int(n):
    return np.abs(n), np.absolute(n), np.negative(n), np.positive(n), np.square(n)


# check: np_unary_float(-0.0) -> (0.0, 0.0, -0.0, 0.0, -math.inf)
# check: np_unary_float(-2.5) -> (2.5, 2.5, -2.5, 6.25, -0.4)
# check: np_unary_float(math.nan) -> (math.nan, math.nan, math.nan, math.nan, math.nan)
@njit
def np_unary_float(x):
    return np.abs(x), np.negative(x), np.positive(x), np.square(x), np.reciprocal(x)


# np.reciprocal of an int is an int (integer division of 1).
# check: np_reciprocal(2) -> 0
# check: np_reciprocal(-1) -> -1
# check: np_reciprocal(1) -> 1
# check: np_reciprocal(np.float32(3.0)) -> 0.3333333432674408
@njit
def np_reciprocal(x):
    return np.reciprocal(x)


# check: np_predicates(1.5) -> (False, False, True)
# check: np_predicates(math.inf) -> (False, True, False)
# check: np_predicates(math.nan) -> (True, False, False)
# check: np_predicates(3) -> (False, False, True)
@njit
def np_predicates(x):
    return np.isnan(x), np.isinf(x), np.isfinite(x)


# check: np_angles(1.0) -> (0.017453292519943295, 57.29577951308232, 0.017453292519943295, 57.29577951308232)
# check: np_angles(180) -> (3.141592653589793, 10313.240312354817, 3.141592653589793, 10313.240312354817)
# check: np_angles(np.float32(1.0)) -> (0.01745329238474369, 57.295780181884766, 0.01745329238474369, 57.295780181884766)
@njit
def np_angles(x):
    return np.deg2rad(x), np.rad2deg(x), np.radians(x), np.degrees(x)


# check: np_spellings(4.0) -> (2.0, 2.0, 5.0, 3.141592653589793)
@njit
def np_spellings(x):
    # `import numpy` and `from numpy import sqrt` name the same functions.
    return numpy.sqrt(x), sqrt(x), numpy.maximum(x, 5.0), numpy.pi


# check: np_constants() -> (3.141592653589793, 2.718281828459045, math.inf, 0.5772156649015329, True)
@njit
def np_constants():
    return np.pi, np.e, np.inf, np.euler_gamma, np.isnan(np.nan)


# check: np_finfo() -> (2.220446049250313e-16, 1.7976931348623157e+308, -1.7976931348623157e+308, 2.2250738585072014e-308, 1e-15)
@njit
def np_finfo():
    return (np.finfo(np.float64).eps, np.finfo(np.float64).max, np.finfo(np.float64).min,
            np.finfo(np.float64).tiny, np.finfo(np.float64).resolution)


# check: np_finfo32() -> (1.1920928955078125e-07, 3.4028234663852886e+38, -3.4028234663852886e+38, 1.1754943508222875e-38, 9.999999974752427e-07)
@njit
def np_finfo32():
    return (np.finfo(np.float32).eps, np.finfo(np.float32).max, np.finfo(np.float32).min,
            np.finfo(np.float32).tiny, np.finfo(np.float32).resolution)


# check: np_finfo32_is_float32() -> 1.0000001192092896
@njit
def np_finfo32_is_float32():
    # float32 + float32 stays float32: 1 + eps32 is exactly representable.
    return np.float32(1.0) + np.finfo(np.float32).eps


# check: np_iinfo() -> (9223372036854775807, -9223372036854775808, 2147483647, -2147483648)
@njit
def np_iinfo():
    return np.iinfo(np.int64).max, np.iinfo(np.int64).min, np.iinfo(np.int32).max, np.iinfo(np.int32).min


# check: np_relative_error(1.0, 1.0000000000000002) -> True
# check: np_relative_error(1.0, 1.1) -> False
@njit
def np_relative_error(a, b):
    # A typical use: tolerances from finfo.
    return np.fabs(a - b) <= 4.0 * np.finfo(np.float64).eps * np.maximum(np.fabs(a), np.fabs(b))


# check: np_zero_signs(-0.0, 0.0) -> (-1.0, -1.0, -1.0, 1.0, -1.0, -1.0)
# check: np_zero_signs(4.0, -2.0) -> (1.0, -1.0, 1.0, 1.0, 1.0, 1.0)
@njit
def np_zero_signs(x, y):
    # The sign of a zero result, made visible: -1.0 for -0.0.
    return (np.copysign(1.0, np.sign(x)), np.copysign(1.0, np.minimum(x, y)),
            np.copysign(1.0, np.fmax(x, y)), np.copysign(1.0, np.mod(x, 3.0)),
            np.copysign(1.0, np.negative(y)), np.copysign(1.0, np.rint(-0.25 * y)))


# check: np_module_constants() -> (6.283185307179586, 0.5772156649015329, 3.141592653589793, 0.5772156649015329)
@njit
def np_module_constants():
    return TWO_PI, GAMMA, NP_PI, euler_gamma
