"""Functions that take compile-time values as arguments: a dtype for the arrays they allocate,
a math builtin to apply, a string that picks a branch. Numba compiles such a function once per
value (each dtype and each builtin is its own type); twinjit does the same."""
import math
from math import floor

import numpy as np
from numba import literally, njit


@njit
def filled(n, dtype, value):
    out = np.empty(n, dtype)
    for i in range(n):
        out[i] = value
    return out


@njit
def total(a):
    s = 0.0
    for x in a:
        s += x
    return s


# The same 0.1 stored as float32, float64 and int64 (truncated), then summed as float64.
# check: filled_totals(10) -> (1.0000000149011612, 0.9999999999999999, 20.0)
@njit
def filled_totals(n):
    return (
        total(filled(n, np.float32, 0.1)),
        total(filled(n, np.float64, 0.1)),
        total(filled(n, np.int64, 2.9)),
    )


# check: filled_dtypes(3) -> ([7, 7, 7], [255, 255, 255])
@njit
def filled_dtypes(n):
    return filled(n, np.int32, 7), filled(n, np.uint8, 300 - 45)


@njit
def mapped_sum(fn, a):
    s = 0.0
    for x in a:
        s += fn(x)
    return s


# check: builtins_passed(np.array([0.25, 2.0, 9.0, 10.5])) -> (8.154583911577024, 21.0, 17.25)
@njit
def builtins_passed(a):
    return mapped_sum(math.sqrt, a), mapped_sum(floor, a), mapped_sum(abs, a - 5.0)


@njit
def norm(a, kind):
    if kind == "l1":
        return np.sum(np.abs(a))
    elif kind == "max":
        return np.max(np.abs(a))
    return np.sqrt(np.sum(a * a))


# check: norms(np.array([3.0, -4.0, 1.0])) -> (8.0, 4.0, 5.0990195135927845)
@njit
def norms(a):
    return norm(a, "l1"), norm(a, "max"), norm(a, "l2")


@njit
def zeros_like_in(a, dtype=np.float64):
    return np.zeros(a.shape, dtype)


# A dtype as a default, and given positionally.
# check: zero_kinds(np.arange(3)) -> ([0.0, 0.0, 0.0], [0, 0, 0], [False, False, False])
@njit
def zero_kinds(a):
    return zeros_like_in(a), zeros_like_in(a, np.int16), zeros_like_in(a, np.bool_)


# `numba.literally(x)` asks for a specialisation on `x`'s value; the value is `x`.
@njit
def scaled(n, mode):
    if literally(mode) == "double":
        return n * 2
    return n + literally(1)


# check: scaled(21, "double") -> 42
# check: scaled(21, "inc") -> 22
