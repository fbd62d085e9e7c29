"""Runtime errors: ZeroDivisionError (error_model='python') and IndexError (boundscheck)."""
import numpy as np
from numba import njit


# Each division raises for a zero divisor of either type (error_model='python'); the
# same function serves int, float and mixed arguments.
# check: truediv(1, 0) raises ZeroDivisionError
# check: truediv(0, 0) raises ZeroDivisionError
# check: truediv(1, 4) -> 0.25
# check: truediv(1.0, 0.0) raises ZeroDivisionError
# check: truediv(-1.0, -0.0) raises ZeroDivisionError
# check: truediv(3.0, 2.0) -> 1.5
@njit
def truediv(a, b):
    return a / b


# check: floordiv(1, 0) raises ZeroDivisionError
# check: floordiv(5, 0) raises ZeroDivisionError
# check: floordiv(-9, 4) -> -3
# check: floordiv(-5, 2) -> -3
# check: floordiv(1.0, 0.0) raises ZeroDivisionError
# check: floordiv(5.0, 0.0) raises ZeroDivisionError
# check: floordiv(1.0, 0.3) -> 3.0
# check: floordiv(-5.5, 2.0) -> -3.0
@njit
def floordiv(a, b):
    return a // b


# check: mod(1, 0) raises ZeroDivisionError
# check: mod(5, 0) raises ZeroDivisionError
# check: mod(-9, 4) -> 3
# check: mod(5, 2) -> 1
# check: mod(1.0, 0.0) raises ZeroDivisionError
# check: mod(5.0, 0.0) raises ZeroDivisionError
# check: mod(1.0, 0.3) -> 0.10000000000000003
# check: mod(5.5, 2.0) -> 1.5
@njit
def mod(a, b):
    return a % b


# check: zero_pow_neg(0, -1) raises ZeroDivisionError
# check: zero_pow_neg(0, -3) raises ZeroDivisionError
# check: zero_pow_neg(0, 0) -> 1
@njit
def zero_pow_neg(a, b):
    return a ** b


# Error raised only on some iterations, after partial writes.
# check: reciprocals(np.array([1.0, 2.0, 4.0]), np.zeros(3)) -> 1.0 ; arg1 == [1.0, 0.5, 0.25]
# check: reciprocals(np.array([1.0, 0.0, 4.0]), np.zeros(3)) raises ZeroDivisionError ; arg1 == [1.0, 0.0, 0.0]
@njit
def reciprocals(x, out):
    for i in range(x.shape[0]):
        out[i] = 1.0 / x[i]
    return out[0]


# check: aug_div_zero(5, 0) raises ZeroDivisionError
# check: aug_div_zero(5, 2) -> 2
@njit
def aug_div_zero(a, b):
    x = a
    x //= b
    return x


# check: mean_of(np.zeros(0)) raises ZeroDivisionError
# check: mean_of(np.array([1.0, 2.0])) -> 1.5
@njit
def mean_of(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s / a.shape[0]


# check: get1(np.array([1, 2, 3]), 2) -> 3
# check: get1(np.array([1, 2, 3]), 3) raises IndexError
# check: get1(np.array([1, 2, 3]), -1) -> 3
# check: get1(np.array([1, 2, 3]), -4) raises IndexError
@njit(boundscheck=True)
def get1(a, i):
    return a[i]


# check: set1(np.zeros(3), 1, 5.0) -> None ; arg0 == [0.0, 5.0, 0.0]
# check: set1(np.zeros(3), 3, 5.0) raises IndexError ; arg0 == [0.0, 0.0, 0.0]
@njit(boundscheck=True)
def set1(a, i, v):
    a[i] = v


# check: get2(np.array([[1, 2], [3, 4]]), 1, 1) -> 4
# check: get2(np.array([[1, 2], [3, 4]]), 0, 2) raises IndexError
# check: get2(np.array([[1, 2], [3, 4]]), 2, 0) raises IndexError
# check: get2(np.array([[1, 2], [3, 4]]), -1, -2) -> 3
@njit(boundscheck=True)
def get2(a, i, j):
    return a[i, j]


# check: get3(np.ones((2, 2, 2)), 1, 1, 1) -> 1.0
# check: get3(np.ones((2, 2, 2)), 1, 1, 2) raises IndexError
@njit(boundscheck=True)
def get3(a, i, j, k):
    return a[i, j, k]


# Off-by-one loop: the last iteration reads past the end.
# check: sum_off_by_one(np.array([1.0, 2.0])) raises IndexError
# check: sum_off_by_one(np.zeros(0)) raises IndexError
@njit(boundscheck=True)
def sum_off_by_one(a):
    s = 0.0
    for i in range(a.shape[0] + 1):
        s += a[i]
    return s


# check: hist_bad_key(np.array([0, 1, 5]), np.zeros(3, dtype=np.int64)) raises IndexError ; arg1 == [1, 1, 0]
# check: hist_bad_key(np.array([0, 1, 1]), np.zeros(3, dtype=np.int64)) -> None ; arg1 == [1, 2, 0]
@njit(boundscheck=True)
def hist_bad_key(keys, counts):
    for i in range(keys.shape[0]):
        counts[keys[i]] += 1


# check: aug_elem_oob(np.zeros(2), 2) raises IndexError
# check: aug_elem_oob(np.zeros(2), 1) -> 1.0
@njit(boundscheck=True)
def aug_elem_oob(a, i):
    a[i] += 1.0
    return a[i]


# Division by zero nested in a called function propagates to the caller.
# check: outer_calls_div(4, 0) raises ZeroDivisionError
# check: outer_calls_div(4, 2) -> 3
@njit
def outer_calls_div(a, b):
    return floordiv(a, b) + 1
