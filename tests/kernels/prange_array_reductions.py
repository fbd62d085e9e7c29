"""`parallel=True` array reductions: an array from outside a `prange` loop updated as a whole
in every iteration (`y += x[i]`, `r *= t`). Each thread accumulates into its own copy and the
copies are combined, as in Numba; the values here are exact in any association."""

import numpy as np
from numba import njit, prange


@njit(parallel=True)
def spread_sum(x):
    y = np.zeros(4)
    for i in prange(x.shape[0]):
        y += x[i]
    return y


# check: spread_sum(np.arange(10, dtype=np.float64)) -> [45.0, 45.0, 45.0, 45.0]
# check: spread_sum(np.zeros(0)) -> [0.0, 0.0, 0.0, 0.0]


@njit(parallel=True)
def through_a_view(x):
    y = np.zeros(3)
    z = y[:]
    for i in prange(x.shape[0]):
        z += x[i]
    return y


# check: through_a_view(np.arange(500, dtype=np.float64)) -> [124750.0, 124750.0, 124750.0]


@njit(parallel=True)
def powers_of_two(n):
    r = 2 * np.ones((3, 5), np.int64)
    t = 2 * np.ones_like(r)
    for i in prange(n):
        r *= t
    return r.sum()


# check: powers_of_two(10) -> 30720
# check: powers_of_two(0) -> 30


@njit(parallel=True)
def weighted_rows(m, w):
    acc = np.zeros(m.shape[1])
    for i in prange(m.shape[0]):
        acc += w[i] * m[i]
    return acc


# check: weighted_rows(np.arange(12, dtype=np.float64).reshape(4, 3), np.array([1.0, 2.0, 0.5, -1.0])) -> [0.0, 2.5, 5.0]


@njit(parallel=True)
def drain(x, start):
    y = np.full(2, start)
    for i in prange(x.shape[0]):
        y -= x[i]
    return y


# check: drain(np.arange(100, dtype=np.float64), 10000.0) -> [5050.0, 5050.0]


@njit(parallel=True)
def halve(n):
    y = np.full(3, 1024.0)
    for i in prange(n):
        y /= 2.0
    return y


# check: halve(10) -> [1.0, 1.0, 1.0]


@njit(parallel=True)
def sum_and_histogram_rows(m):
    total = 0.0
    col = np.zeros(m.shape[1])
    for i in prange(m.shape[0]):
        total += m[i].sum()
        col += m[i]
    return total, col


# check: sum_and_histogram_rows(np.arange(20, dtype=np.float64).reshape(5, 4)) -> (190.0, [40.0, 45.0, 50.0, 55.0])
