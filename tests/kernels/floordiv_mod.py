"""Floor division and modulo with Python sign rules, and divmod-like helpers."""
from numba import njit


# Floor division and modulo together, and whether q * b + r == a, on ints, floats and a
# mix: every sign combination, a float quotient just below an integer (0.3 // 0.1 == 2.0)
# and a tiny negative dividend whose remainder rounds to the divisor (so the identity fails).
# (A zero divisor raises: tests/kernels/errors.py.)
# check: floordiv_mod(7, 2) -> (3, 1, True)
# check: floordiv_mod(-7, 2) -> (-4, 1, True)
# check: floordiv_mod(7, -2) -> (-4, -1, True)
# check: floordiv_mod(-7, -2) -> (3, -1, True)
# check: floordiv_mod(7, 3) -> (2, 1, True)
# check: floordiv_mod(-7, 3) -> (-3, 2, True)
# check: floordiv_mod(7, -3) -> (-3, -2, True)
# check: floordiv_mod(-7, -3) -> (2, -1, True)
# check: floordiv_mod(-17, 5) -> (-4, 3, True)
# check: floordiv_mod(123, -7) -> (-18, -3, True)
# check: floordiv_mod(0, 3) -> (0, 0, True)
# check: floordiv_mod(7.5, 2.0) -> (3.0, 1.5, True)
# check: floordiv_mod(-7.5, 2.0) -> (-4.0, 0.5, True)
# check: floordiv_mod(7.5, -2.0) -> (-4.0, -0.5, True)
# check: floordiv_mod(0.3, 0.1) -> (2.0, 0.09999999999999998, True)
# check: floordiv_mod(-1e-20, 3.0) -> (-1.0, 3.0, False)
# check: floordiv_mod(7, 2.0) -> (3.0, 1.0, True)
# check: floordiv_mod(-7, 2.0) -> (-4.0, 1.0, True)
@njit
def floordiv_mod(a, b):
    q = a // b
    r = a % b
    return q, r, q * b + r == a


# check: digits_sum(12345) -> 15
# check: digits_sum(0) -> 0
# check: digits_sum(1000000007) -> 8
@njit
def digits_sum(n):
    s = 0
    while n > 0:
        s += n % 10
        n //= 10
    return s


# check: wrap_index(-1, 5) -> 4
# check: wrap_index(7, 5) -> 2
# check: wrap_index(-11, 5) -> 4
@njit
def wrap_index(i, n):
    return i % n


# check: aug_floordiv_mod(-23, 4) -> (-6, 1)
# check: aug_floordiv_mod(23, -4) -> (-6, -1)
@njit
def aug_floordiv_mod(a, b):
    x = a
    y = a
    x //= b
    y %= b
    return x, y
