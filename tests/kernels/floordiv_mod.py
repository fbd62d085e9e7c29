"""Floor division and modulo with Python sign rules, and divmod-like helpers."""
from numba import njit


# check: floordiv_int(7, 2) -> 3
# check: floordiv_int(-7, 2) -> -4
# check: floordiv_int(7, -2) -> -4
# check: floordiv_int(-7, -2) -> 3
@njit
def floordiv_int(a, b):
    return a // b


# check: mod_int(7, 3) -> 1
# check: mod_int(-7, 3) -> 2
# check: mod_int(7, -3) -> -2
# check: mod_int(-7, -3) -> -1
@njit
def mod_int(a, b):
    return a % b


# check: floordiv_float(7.5, 2.0) -> 3.0
# check: floordiv_float(-7.5, 2.0) -> -4.0
# check: floordiv_float(7.5, -2.0) -> -4.0
# check: floordiv_float(0.3, 0.1) -> 2.0
@njit
def floordiv_float(x, y):
    return x // y


# check: mod_float(7.5, 2.0) -> 1.5
# check: mod_float(-7.5, 2.0) -> 0.5
# check: mod_float(7.5, -2.0) -> -0.5
# check: mod_float(-1e-20, 3.0) -> 3.0
@njit
def mod_float(x, y):
    return x % y


# check: floordiv_mixed(7, 2.0) -> 3.0
# check: floordiv_mixed(-7, 2.0) -> -4.0
@njit
def floordiv_mixed(a, y):
    return a // y


# check: divmod_like(17, 5) -> (3, 2)
# check: divmod_like(-17, 5) -> (-4, 3)
# check: divmod_like(17, -5) -> (-4, -3)
@njit
def divmod_like(a, b):
    return a // b, a % b


# q * b + r == a must always hold.
# check: divmod_identity(-17, 5) -> True
# check: divmod_identity(123, -7) -> True
# check: divmod_identity(0, 3) -> True
@njit
def divmod_identity(a, b):
    q, r = divmod_like(a, b)
    return q * b + r == a


# check: mod_zero_int(5, 0) raises ZeroDivisionError
# check: mod_zero_int(5, 2) -> 1
@njit
def mod_zero_int(a, b):
    return a % b


# check: floordiv_zero_int(5, 0) raises ZeroDivisionError
# check: floordiv_zero_int(-5, 2) -> -3
@njit
def floordiv_zero_int(a, b):
    return a // b


# check: mod_zero_float(5.0, 0.0) raises ZeroDivisionError
# check: floordiv_zero_float(5.0, 0.0) raises ZeroDivisionError
# check: mod_zero_float(5.5, 2.0) -> 1.5
# check: floordiv_zero_float(-5.5, 2.0) -> -3.0
@njit
def mod_zero_float(x, y):
    return x % y


@njit
def floordiv_zero_float(x, y):
    return x // y


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
