"""Tuple returns, tuple unpacking, swaps."""
import numpy as np
from numba import njit


# check: divmod_like(17, 5) -> (3, 2)
# check: divmod_like(-17, 5) -> (-4, 3)
# check: divmod_like(17, -5) -> (-4, -3)
@njit
def divmod_like(a, b):
    return a // b, a % b


# check: use_divmod(100, 7) -> 14002
# check: use_divmod(-100, 7) -> -14995
@njit
def use_divmod(a, b):
    q, r = divmod_like(a, b)
    return q * 1000 + r


# check: swap(1, 2) -> (2, 1)
# check: swap(-5, 9) -> (9, -5)
@njit
def swap(x, y):
    x, y = y, x
    return x, y


# check: rotate3(1, 2, 3) -> (2, 3, 1)
# check: rotate3(-1, 0, 1) -> (0, 1, -1)
@njit
def rotate3(a, b, c):
    a, b, c = b, c, a
    return a, b, c


# check: min_max_mean(3.0, 1.0, 2.0) -> (1.0, 3.0, 2.0)
# check: min_max_mean(-1.0, -1.0, -1.0) -> (-1.0, -1.0, -1.0)
@njit
def min_max_mean(a, b, c):
    return min(a, b, c), max(a, b, c), (a + b + c) / 3.0


# Mixed-type tuple: (int, float, bool).
# check: mixed_tuple(4) -> (8, 2.0, True)
# check: mixed_tuple(-3) -> (-6, -1.5, False)
@njit
def mixed_tuple(n):
    return n * 2, n / 2, n > 0


# check: stats(np.array([1.0, 2.0, 3.0, 4.0])) -> (2.5, 1.25)
# check: stats(np.array([5.0])) -> (5.0, 0.0)
@njit
def stats(a):
    s = 0.0
    ss = 0.0
    for i in range(a.shape[0]):
        s += a[i]
        ss += a[i] * a[i]
    n = a.shape[0]
    mean = s / n
    return mean, ss / n - mean * mean


# check: unpack_stats(np.array([2.0, 4.0, 6.0])) -> 6.666666666666668
# check: unpack_stats(np.array([1.0, 1.0])) -> 1.0
@njit
def unpack_stats(a):
    m, v = stats(a)
    return m + v


# check: nested_unpack(5, 3) -> (3, 2, 1, 2)
# check: nested_unpack(-7, 2) -> (3, 0, -4, 1)
@njit
def nested_unpack(a, b):
    q1, r1 = divmod_like(a, b)
    q2, r2 = divmod_like(q1 + 10, r1 + 1)
    return q2, r2, q1, r1


# check: fib_pair(10) -> (55, 89)
# check: fib_pair(0) -> (0, 1)
@njit
def fib_pair(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a, b


# check: ext_gcd(240, 46) -> (2, -9, 47)
# check: ext_gcd(7, 0) -> (7, 1, 0)
@njit
def ext_gcd(a, b):
    if b == 0:
        return a, 1, 0
    g, x, y = ext_gcd(b, a % b)
    return g, y, x - (a // b) * y


# check: return_single_tuple(3) -> (3, 3)
# check: return_single_tuple(-8) -> (-8, -8)
@njit
def return_single_tuple(n):
    return n, n


# check: swap_in_loop(5) -> 21
# check: swap_in_loop(0) -> 12
@njit
def swap_in_loop(n):
    x = 1
    y = 2
    for _ in range(n):
        x, y = y, x
    return x * 10 + y


# check: argmin_val(np.array([4.0, -2.0, 7.0, -2.0])) -> (1, -2.0)
# check: argmin_val(np.array([1, 0, 3])) -> (1, 0)
@njit
def argmin_val(a):
    best_i = 0
    best_v = a[0]
    for i in range(1, a.shape[0]):
        if a[i] < best_v:
            best_i, best_v = i, a[i]
    return best_i, best_v


# check: cplx_mul(1.0, 2.0, 3.0, 4.0) -> (-5.0, 10.0)
# check: cplx_mul(0.0, 1.0, 0.0, 1.0) -> (-1.0, 0.0)
@njit
def cplx_mul(ar, ai, br, bi):
    return ar * br - ai * bi, ar * bi + ai * br
