"""The ** operator: int ** int (incl. negative exponents), float powers, **=."""
import math
from numba import njit


# One `a ** b`, specialized per argument types.
# int ** int with runtime operands stays int64, even for a negative exponent, and wraps.
# check: power(2, 10) -> 1024
# check: power(3, 0) -> 1
# check: power(-3, 3) -> -27
# check: power(2, -1) -> 0
# check: power(1, -5) -> 1
# check: power(-1, -3) -> -1
# check: power(-1, -4) -> 1
# check: power(0, -1) raises ZeroDivisionError
# check: power(2, 63) -> -9223372036854775808
# check: power(2, 64) -> 0
# check: power(3, 40) -> -6289078614652622815
# float ** float, nan and inf operands:
# check: power(2.0, 0.5) -> 1.4142135623730951
# check: power(-8.0, 0.3333333333333333) -> math.nan
# check: power(0.0, 0.0) -> 1.0
# check: power(0.0, -1.0) -> math.inf
# check: power(math.nan, 0.0) -> 1.0
# check: power(1.0, math.nan) -> 1.0
# check: power(2.0, math.inf) -> math.inf
# check: power(0.5, math.inf) -> 0.0
# float ** int (zero to a negative int power raises, unlike float ** float):
# check: power(1.5, 3) -> 3.375
# check: power(2.0, -2) -> 0.25
# check: power(-2.0, 3) -> -8.0
# check: power(0.0, -1) raises ZeroDivisionError
# int ** float:
# check: power(2, 0.5) -> 1.4142135623730951
# check: power(4, -0.5) -> 0.5
@njit
def power(a, b):
    return a ** b


# check: zero_pow_zero(0) -> 1
# check: zero_pow_zero(5) -> 0
@njit
def zero_pow_zero(a):
    return 0 ** a


# A literal `2 ** -1` is folded by CPython before Numba sees it, so it is 0.5.
# check: literal_neg_pow() -> 0.5
@njit
def literal_neg_pow():
    return 2 ** -1


# A runtime negative exponent stays an integer power.
# check: var_neg_pow() -> 0
@njit
def var_neg_pow():
    e = -1
    return 2 ** e


# check: aug_pow(3, 4) -> 81
# check: aug_pow(-2, 5) -> -32
# check: aug_pow(7, 0) -> 1
@njit
def aug_pow(a, n):
    x = a
    x **= n
    return x


# check: pow_precedence(2) -> 508
# check: pow_precedence(3) -> 503
@njit
def pow_precedence(a):
    return -a ** 2 + 2 ** 3 ** 2


# check: square_sum(4) -> 21.0
# check: square_sum(0) -> 0.0
@njit
def square_sum(n):
    s = 0.0
    for i in range(n):
        s += (i + 0.5) ** 2
    return s
