"""The rest of the math module Numba compiles: special functions, rounding, scaling,
integer gcd, and the float32 forms of each."""
import math
import numpy as np
from numba import njit


# erf and erfc, the accurate expm1 and log1p, exp2: zero, tiny and negative values, the
# infinity, ints (promoted to float64).
# check: m_erf_exp(0.5) -> (0.5204998778130465, 0.4795001221869535, 0.6487212707001282, 0.4054651081081644, 1.4142135623730951)
# check: m_erf_exp(-2.0) -> (-0.9953222650189527, 1.9953222650189528, -0.8646647167633873, math.nan, 0.25)
# check: m_erf_exp(0.0) -> (0.0, 1.0, 0.0, 0.0, 1.0)
# check: m_erf_exp(math.inf) -> (1.0, 0.0, math.inf, math.inf, math.inf)
# check: m_erf_exp(1) -> (0.8427007929497149, 0.15729920705028513, 1.718281828459045, 0.6931471805599453, 2.0)
# check: m_erf_exp(1e-10) -> (1.1283791670955126e-10, 0.999999999887162, 1.00000000005e-10, 9.999999999500001e-11, 1.0000000000693148)
# check: m_erf_exp(-0.75) -> (-0.7111556336535151, 1.7111556336535152, -0.5276334472589853, -1.3862943611198906, 0.5946035575013605)
# check: m_erf_exp(10.0) -> (1.0, 2.088487583762545e-45, 22025.465794806718, 2.3978952727983707, 1024.0)
# check: m_erf_exp(-1.5) -> (-0.9661051464753108, 1.9661051464753108, -0.7768698398515702, math.nan, 0.3535533905932738)
# check: m_erf_exp(3) -> (0.9999779095030014, 2.2090496998585438e-05, 19.085536923187668, 1.3862943611198906, 8.0)
@njit
def m_erf_exp(x):
    return math.erf(x), math.erfc(x), math.expm1(x), math.log1p(x), math.exp2(x)


# check: m_gamma(5.0) -> (24.0, 3.1780538303479458)
# check: m_gamma(0.5) -> (1.772453850905516, 0.5723649429247001)
# check: m_gamma(-1.5) -> (2.363271801207355, 0.8600470153764809)
# check: m_gamma(171.5) -> (9.4833675668248e+307, 709.1431630309282)
# check: m_gamma(10) -> (362880.0, 12.80182748008147)
# check: m_gamma(-2.5) -> (-0.9453087204829419, -0.05624371649767407)
# check: m_gamma(1e-300) -> (9.999999999999999e+299, 690.7755278982137)
@njit
def m_gamma(x):
    return math.gamma(x), math.lgamma(x)


# degrees and radians; the inverse hyperbolic functions, acosh and atanh with their
# arguments moved so that some land outside the domain (nan).
# check: m_angles(math.pi) -> (180.0, 0.05483113556160755, 1.8622957433108482, 2.0993233310910635, 1.0593061708232432)
# check: m_angles(1.0) -> (57.29577951308232, 0.017453292519943295, 0.881373587019543, 1.3169578969248166, 0.25541281188299536)
# check: m_angles(90) -> (5156.620156177409, 1.5707963267948966, 5.192987713658941, 5.203976496118957, math.nan)
# check: m_angles(0.5) -> (28.64788975654116, 0.008726646259971648, 0.48121182505960347, 0.9624236501192069, 0.12565721414045303)
# check: m_angles(2.0) -> (114.59155902616465, 0.03490658503988659, 1.4436354751788103, 1.762747174039086, 0.5493061443340548)
# check: m_angles(-0.25) -> (-14.32394487827058, -0.004363323129985824, -0.24746646154726346, math.nan, -0.06258157147700301)
@njit
def m_angles(x):
    return math.degrees(x), math.radians(x), math.asinh(x), math.acosh(x + 1.0), math.atanh(x / 4.0)


# math.trunc returns int64, like math.floor and math.ceil.
# check: m_trunc(2.7) -> 2
# check: m_trunc(-2.7) -> -2
# check: m_trunc(-0.5) -> 0
# check: m_trunc(7) -> 7
# check: m_trunc(1e18) -> 1000000000000000000
@njit
def m_trunc(x):
    return math.trunc(x)


# check: m_ldexp(0.75, 4) -> 12.0
# check: m_ldexp(1.0, -1074) -> 5e-324
# check: m_ldexp(1.0, 1024) -> math.inf
# check: m_ldexp(-3.0, 0) -> -3.0
@njit
def m_ldexp(x, n):
    return math.ldexp(x, n)


# frexp, and ldexp of its parts giving back x.
# check: m_frexp(8.0) -> (0.5, 4, True)
# check: m_frexp(-0.3) -> (-0.6, -1, True)
# check: m_frexp(0.0) -> (0.0, 0, True)
# check: m_frexp(5e-324) -> (0.5, -1073, True)
# check: m_frexp(math.inf) -> (math.inf, 0, True)
# check: m_frexp(123.456) -> (0.9645, 7, True)
# check: m_frexp(-1e-310) -> (-0.5752618031559393, -1029, True)
@njit
def m_frexp(x):
    m, e = math.frexp(x)
    return m, e, math.ldexp(m, e) == x


# The float32 forms: results stay float32 (so `* np.float32(2.0)` does not widen).
# check: m_float32(np.float32(0.5)) -> (1.4795000553131104, 0, 0, 1, 28.647890090942383, 1.0, 0)
# check: m_float32(np.float32(-1.25)) -> (2.9228999614715576, -1, -2, -1, -71.6197280883789, -1.25, 1)
# check: m_float32(np.float32(-3.75)) -> (3.0, -3, -4, -3, -214.8591766357422, -1.875, 2)
# check: m_float32(np.float32(1.5)) -> (1.0338948965072632, 1, 1, 2, 85.94367218017578, 1.5, 1)
# check: m_float32(np.float32(6.0)) -> (1.0, 6, 6, 6, 343.7746887207031, 1.5, 3)
@njit
def m_float32(x):
    m, e = math.frexp(x)
    erfs = math.erf(x) + math.erfc(x) * np.float32(2.0)
    return erfs, math.trunc(x), math.floor(x), math.ceil(x), math.degrees(x), m * np.float32(2.0), e


# math.gcd of int64 and of int32 arguments.
# check: m_gcd(12, 18) -> 6
# check: m_gcd(-12, 18) -> 6
# check: m_gcd(0, 0) -> 0
# check: m_gcd(0, -7) -> 7
# check: m_gcd(1071, 462) -> 21
# check: m_gcd(np.int32(48), np.int32(-36)) -> 12
@njit
def m_gcd(a, b):
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
