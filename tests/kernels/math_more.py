"""The rest of the math module Numba compiles: special functions, rounding, scaling,
integer gcd, and the float32 forms of each."""
import math
import numpy as np
from numba import njit


# check: m_erf(0.5) -> (0.5204998778130465, 0.4795001221869535)
# check: m_erf(-2.0) -> (-0.9953222650189527, 1.9953222650189528)
# check: m_erf(0.0) -> (0.0, 1.0)
# check: m_erf(math.inf) -> (1.0, 0.0)
# check: m_erf(1) -> (0.8427007929497149, 0.15729920705028513)
@njit
def m_erf(x):
    return math.erf(x), math.erfc(x)


# check: m_erf32(np.float32(0.5)) -> 1.4795000553131104
# check: m_erf32(np.float32(-1.25)) -> 2.9228999614715576
@njit
def m_erf32(x):
    return math.erf(x) + math.erfc(x) * np.float32(2.0)


# check: m_gamma(5.0) -> (24.0, 3.1780538303479458)
# check: m_gamma(0.5) -> (1.772453850905516, 0.5723649429247001)
# check: m_gamma(-1.5) -> (2.363271801207355, 0.8600470153764809)
# check: m_gamma(171.5) -> (9.4833675668248e+307, 709.1431630309282)
# check: m_gamma(10) -> (362880.0, 12.80182748008147)
@njit
def m_gamma(x):
    return math.gamma(x), math.lgamma(x)


# check: m_lgamma_neg(-2.5) -> -0.05624371649767407
# check: m_lgamma_neg(1e-300) -> 690.7755278982137
@njit
def m_lgamma_neg(x):
    return math.lgamma(x)


# check: m_expm1_log1p(1e-10) -> (1.00000000005e-10, 9.999999999500001e-11)
# check: m_expm1_log1p(0.5) -> (0.6487212707001282, 0.4054651081081644)
# check: m_expm1_log1p(-0.75) -> (-0.5276334472589853, -1.3862943611198906)
# check: m_expm1_log1p(0.0) -> (0.0, 0.0)
@njit
def m_expm1_log1p(x):
    return math.expm1(x), math.log1p(x)


# check: m_exp2(10.0) -> 1024.0
# check: m_exp2(-1.5) -> 0.3535533905932738
# check: m_exp2(3) -> 8.0
@njit
def m_exp2(x):
    return math.exp2(x)


# check: m_inverse_hyperbolic(0.5) -> (0.48121182505960347, 0.9624236501192069, 0.12565721414045303)
# check: m_inverse_hyperbolic(2.0) -> (1.4436354751788103, 1.762747174039086, 0.5493061443340548)
# check: m_inverse_hyperbolic(-0.25) -> (-0.24746646154726346, math.nan, -0.06258157147700301)
@njit
def m_inverse_hyperbolic(x):
    return math.asinh(x), math.acosh(x + 1.0), math.atanh(x / 4.0)


# check: m_trunc(2.7) -> 2
# check: m_trunc(-2.7) -> -2
# check: m_trunc(-0.5) -> 0
# check: m_trunc(7) -> 7
# check: m_trunc(1e18) -> 1000000000000000000
@njit
def m_trunc(x):
    return math.trunc(x)


# check: m_trunc32(np.float32(-3.75)) -> (-3, -4, -3)
@njit
def m_trunc32(x):
    return math.trunc(x), math.floor(x), math.ceil(x)


# check: m_degrees_radians(math.pi) -> (180.0, 0.05483113556160755)
# check: m_degrees_radians(1.0) -> (57.29577951308232, 0.017453292519943295)
# check: m_degrees_radians(90) -> (5156.620156177409, 1.5707963267948966)
@njit
def m_degrees_radians(x):
    return math.degrees(x), math.radians(x)


# check: m_degrees32(np.float32(1.5)) -> 85.94367218017578
@njit
def m_degrees32(x):
    return math.degrees(x)


# check: m_ldexp(0.75, 4) -> 12.0
# check: m_ldexp(1.0, -1074) -> 5e-324
# check: m_ldexp(1.0, 1024) -> math.inf
# check: m_ldexp(-3.0, 0) -> -3.0
@njit
def m_ldexp(x, n):
    return math.ldexp(x, n)


# check: m_frexp(8.0) -> (0.5, 4)
# check: m_frexp(-0.3) -> (-0.6, -1)
# check: m_frexp(0.0) -> (0.0, 0)
# check: m_frexp(5e-324) -> (0.5, -1073)
# check: m_frexp(math.inf) -> (math.inf, 0)
@njit
def m_frexp(x):
    return math.frexp(x)


# check: m_frexp_roundtrip(123.456) -> (True, 7)
# check: m_frexp_roundtrip(-1e-310) -> (True, -1029)
@njit
def m_frexp_roundtrip(x):
    m, e = math.frexp(x)
    return math.ldexp(m, e) == x, e


# check: m_frexp32(np.float32(6.0)) -> (1.5, 3)
@njit
def m_frexp32(x):
    m, e = math.frexp(x)
    return m * np.float32(2.0), e


# check: m_gcd(12, 18) -> 6
# check: m_gcd(-12, 18) -> 6
# check: m_gcd(0, 0) -> 0
# check: m_gcd(0, -7) -> 7
# check: m_gcd(1071, 462) -> 21
@njit
def m_gcd(a, b):
    return math.gcd(a, b)


# check: m_gcd32(np.int32(48), np.int32(-36)) -> 12
@njit
def m_gcd32(a, b):
    return math.gcd(a, b)


# check: m_nextafter(1.0, 2.0) -> 1.0000000000000002
# check: m_nextafter(0.0, -1.0) -> -5e-324
# check: m_nextafter(1.0, 1.0) -> 1.0
@njit
def m_nextafter(x, y):
    return math.nextafter(x, y)


# check: normal_cdf(0.0) -> 0.5
# check: normal_cdf(1.96) -> 0.9750021048517795
# check: normal_cdf(-3.0) -> 0.0013498980316300957
@njit
def normal_cdf(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


# check: log_binomial(10, 3) -> 4.78749174278205
# check: log_binomial(100, 50) -> 66.78384165201749
@njit
def log_binomial(n, k):
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


# check: reduce_fraction(84, 36) -> (7, 3)
# check: reduce_fraction(-10, 4) -> (-5, 2)
@njit
def reduce_fraction(p, q):
    g = math.gcd(p, q)
    return p // g, q // g
