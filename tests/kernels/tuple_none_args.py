"""Tuples and None passed as arguments from the caller: shapes, (lo, hi) ranges and
coefficient tuples as users pass them, and an explicit None for an optional parameter."""

import numpy as np
from numba import njit


@njit
def area(shape):
    h, w = shape
    return h * w


# check: area((3, 4)) -> 12
# check: area((7, 0)) -> 0


@njit
def count_in_range(a, bounds):
    lo, hi = bounds
    n = 0
    for x in a:
        if lo <= x < hi:
            n += 1
    return n


# check: count_in_range(np.array([0.5, 1.5, 2.5, 3.5]), (1.0, 3.0)) -> 2
# check: count_in_range(np.array([1, 2, 3]), (2, 10)) -> 2


@njit
def horner(coeffs, x):
    r = 0.0
    for c in coeffs:
        r = r * x + c
    return r


# check: horner((1.0, -2.0, 3.0), 2.0) -> 3.0
# check: horner((2, 0, 0, 1), 3.0) -> 55.0


@njit
def mixed_tuple(t):
    # a heterogeneous tuple: int, float, bool
    n, scale, flip = t
    r = n * scale
    return -r if flip else r


# check: mixed_tuple((3, 0.5, True)) -> -1.5
# check: mixed_tuple((4, 2.5, False)) -> 10.0


@njit
def nested_index(t, i):
    return t[i] * 2


# check: nested_index((10, 20, 30), 1) -> 40
# check: nested_index((10, 20, 30), -1) -> 60


@njit
def make_grid(shape):
    out = np.zeros(shape)
    for i in range(shape[0]):
        for j in range(shape[1]):
            out[i, j] = i * shape[1] + j
    return out


# check: make_grid((2, 3)) -> [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


@njit
def scaled(a, factor=None):
    if factor is None:
        return a.sum()
    return a.sum() * factor


# check: scaled(np.array([1.0, 2.0]), None) -> 3.0
# check: scaled(np.array([1.0, 2.0]), 3.0) -> 9.0
# check: scaled(np.array([1.0, 2.0])) -> 3.0


@njit
def first_or(a, default):
    if default is not None and a.size == 0:
        return default
    return a[0]


# check: first_or(np.array([5.0, 6.0]), None) -> 5.0
# check: first_or(np.array([5.0, 6.0]), 1.5) -> 5.0


@njit
def returns_tuple_arg(t):
    return t


# check: returns_tuple_arg((1, 2.5)) -> (1, 2.5)


@njit
def tuple_of_u8(t):
    a, b = t
    return a + b


# check: tuple_of_u8((np.uint8(200), np.uint8(100))) -> 300
