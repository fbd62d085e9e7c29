"""Exceptions raised by compiled code: `raise` of builtin classes and of classes defined in the
module (with constant and runtime arguments), `raise Class` without a call, and `assert`."""
import numpy as np
from numba import njit


class MyError(Exception):
    pass


class NegativeError(ValueError):
    """A module exception deriving from a builtin one."""


class TooNegative(NegativeError):
    pass


# check: checked_sqrt(4.0) -> 2.0
# check: checked_sqrt(-1.0) raises ValueError: negative input
@njit
def checked_sqrt(x):
    if x < 0:
        raise ValueError("negative input")
    return x ** 0.5


# check: bare_class(3) -> 3
# check: bare_class(-3) raises ValueError
@njit
def bare_class(x):
    if x < 0:
        raise ValueError
    return x


# check: custom(1) -> 2
# check: custom(0) raises MyError: custom failure
@njit
def custom(x):
    if x == 0:
        raise MyError("custom failure")
    return 2 * x


# check: derived(5) -> 5
# check: derived(-5) raises NegativeError: x must not be negative
# check: derived(-50) raises TooNegative
@njit
def derived(x):
    if x < -10:
        raise TooNegative
    if x < 0:
        raise NegativeError("x must not be negative")
    return x


# Runtime values in the arguments: the message is str() of the argument tuple.
# check: runtime_int(7) -> 7
# check: runtime_int(-3) raises ValueError: ('bad value', -3)
@njit
def runtime_int(x):
    if x < 0:
        raise ValueError("bad value", x)
    return x


# check: runtime_float(1.0) -> 1.0
# check: runtime_float(-1.0) raises ValueError: -2.5
@njit
def runtime_float(x):
    if x < 0:
        raise ValueError(x * 2.5)
    return x


# check: runtime_mixed(1, 2.0) -> 3.0
# check: runtime_mixed(-1, 0.1) raises RuntimeError: ('n', -1, 'x', 0.1, True)
@njit
def runtime_mixed(n, x):
    if n < 0:
        raise RuntimeError("n", n, "x", x, n > -5)
    return n + x


# check: runtime_int32(np.int32(-4)) raises OverflowError: ('int32', -4)
@njit
def runtime_int32(x):
    if x < 0:
        raise OverflowError("int32", x)
    return x


# check: constants(0) -> 0
# check: constants(1) raises TypeError: ('wrong', 3, 2.5, True, -1e+20, "it's")
@njit
def constants(x):
    if x:
        raise TypeError("wrong", 3, 2.5, True, -1e20, "it's")
    return x


# check: key_error(-1) raises KeyError: 'missing key'
@njit
def key_error(k):
    if k < 0:
        raise KeyError("missing key")
    return k


# check: assert_plain(2) -> 2
# check: assert_plain(-2) raises AssertionError
@njit
def assert_plain(x):
    assert x > 0
    return x


# check: assert_message(2) -> 4
# check: assert_message(0) raises AssertionError: x must be positive
@njit
def assert_message(x):
    assert x > 0, "x must be positive"
    return x * 2


# check: assert_runtime(1, 2) -> -1
# check: assert_runtime(3, 2) raises AssertionError: 3
@njit
def assert_runtime(x, y):
    assert x < y, x
    return x - y


# A raise inside a loop, after partial writes.
# check: first_negative(np.array([1.0, 2.0, 3.0]), np.zeros(3)) -> 6.0 ; arg1 == [1.0, 2.0, 3.0]
# check: first_negative(np.array([1.0, -2.0, 3.0]), np.zeros(3)) raises IndexError: ('negative element at', 1)
@njit
def first_negative(a, out):
    s = 0.0
    for i in range(a.shape[0]):
        if a[i] < 0:
            raise IndexError("negative element at", i)
        out[i] = a[i]
        s += a[i]
    return s


# The exception of a callee reaches the caller.
# check: calls_checked(9.0) -> 4.0
# check: calls_checked(-9.0) raises ValueError: negative input
@njit
def calls_checked(x):
    return checked_sqrt(x) + 1.0


# Every path raises: the function returns nothing.
# check: not_yet(1) raises NotImplementedError: ('not implemented for', 1)
@njit
def not_yet(x):
    raise NotImplementedError("not implemented for", x)


# Raising ZeroDivisionError and ArithmeticError by hand.
# check: safe_div(7, 2) -> 3
# check: safe_div(7, 0) raises ZeroDivisionError: b is zero
# check: safe_div(-7, 2) raises ArithmeticError: ('a is negative:', -7)
@njit
def safe_div(a, b):
    if b == 0:
        raise ZeroDivisionError("b is zero")
    if a < 0:
        raise ArithmeticError("a is negative:", a)
    return a // b


# An exception raised as a bare module class, in a helper with several raise sites.
# check: classify(5) -> 1
# check: classify(-5) raises MyError
# check: classify(0) raises Exception: zero
@njit
def classify(x):
    if x > 0:
        return 1
    if x < 0:
        raise MyError
    raise Exception("zero")


# An exception carrying several values computed at run time: the bounding box that failed.
# check: check_box(0.0, 1.0, 0.0, 1.0, 0.5) -> 0.5
# check: check_box(2.0, 1.0, 0.0, 3.0, 0.5) raises ValueError: ('empty box', 2.0, 1.0, 0.0, 3.0, 4, True)
@njit
def check_box(x0, x1, y0, y1, v):
    w = x1 - x0
    h = y1 - y0
    if w <= 0 or h <= 0:
        raise ValueError("empty box", x0, x1, y0, y1, 4, w < h)
    return v * w * h
