"""The operator module's functional forms of the operators, as reductions and comparisons use
them in Numba code."""
import operator
from operator import add, mul, lt

import numpy as np
from numba import njit


# check: arith(7, 2) -> (9, 5, 14, 3.5, 3, 1, 49)
# check: arith(-7, 2) -> (-5, -9, -14, -3.5, -4, 1, 49)
# check: arith(7.5, -2.0) -> (5.5, 9.5, -15.0, -3.75, -4.0, -0.5, 56.25)
@njit
def arith(a, b):
    return (operator.add(a, b), operator.sub(a, b), operator.mul(a, b), operator.truediv(a, b),
            operator.floordiv(a, b), operator.mod(a, b), operator.pow(a, 2))


# check: bits(12, 10) -> (8, 14, 6, 48, 6, -13)
# check: bits(-1, 3) -> (3, -1, -4, -4, -1, 0)
@njit
def bits(a, b):
    return (operator.and_(a, b), operator.or_(a, b), operator.xor(a, b),
            operator.lshift(a, 2), operator.rshift(a, 1), operator.invert(a))


# check: compare(1.5, 2.5) -> (False, True, True, True, False, False)
# check: compare(3, 3) -> (True, False, False, True, False, True)
@njit
def compare(a, b):
    return (operator.eq(a, b), operator.ne(a, b), operator.lt(a, b),
            operator.le(a, b), operator.gt(a, b), operator.ge(a, b))


# check: unary(-4.5) -> (4.5, -4.5, False)
# check: unary(0) -> (0, 0, True)
@njit
def unary(x):
    return operator.neg(x), operator.pos(x), operator.not_(x)


# check: inplace(3, 4) -> 13
@njit
def inplace(a, b):
    a = operator.iadd(a, b)
    a = operator.imul(a, 2)
    return operator.isub(a, 1)


# The in-place bitwise forms, whose plain names end in `_` (`and_`, `or_`).
# check: inplace_bits(12, 10) -> (8, 14, 6, 48, 3)
@njit
def inplace_bits(a, b):
    return operator.iand(a, b), operator.ior(a, b), operator.ixor(a, b), operator.ilshift(a, 2), operator.irshift(a, 2)


# check: fold_product(np.array([1.0, 2.0, 3.5, -1.0])) -> -7.0
# check: fold_product(np.array([2.0])) -> 2.0
@njit
def fold_product(a):
    acc = 1.0
    for x in a:
        acc = mul(acc, x)
    return add(acc, 0.0)


# check: count_below(np.array([3, 1, 4, 1, 5]), 3) -> 2
@njit
def count_below(a, k):
    n = 0
    for i in range(a.shape[0]):
        if lt(a[i], k):
            n += 1
    return n


# check: in_tuple(3) -> True
# check: in_tuple(4) -> False
@njit
def in_tuple(x):
    return operator.contains((1, 2, 3), x)
