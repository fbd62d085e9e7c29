"""A dtype passed to a function: as a default (`dtype=np.float64`, the common spelling of
array-making helpers) or as an argument, then given to NumPy's constructors and `astype`.
Numba types a dtype argument as its NumberClass and compiles the function once per dtype;
twinjit passes a dtype as its name (a string argument from Rust or the CLI) and does the same."""

import numpy as np
from numba import njit


@njit
def grid(n, m, dtype=np.float64):
    g = np.zeros((n, m), dtype=dtype)
    for i in range(n):
        for j in range(m):
            g[i, j] = i * m + j
    return g


# check: grid(2, 3) -> [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
# check: grid(2, 2, np.int32) -> [[0, 1], [2, 3]]


@njit
def quantize(x, dtype=np.int16):
    return np.round(x * 100.0).astype(dtype)


# check: quantize(np.array([0.123, -0.5, 1.0])) -> [12, -50, 100]
# check: quantize(np.array([0.123, -0.5, 1.0]), np.int64) -> [12, -50, 100]


@njit
def ramp(n, dtype=np.float32):
    r = np.arange(n, dtype=dtype)
    return r * 2


# check: ramp(4) -> [0.0, 2.0, 4.0, 6.0]
# check: ramp(3, np.uint8) -> [0, 2, 4]


@njit
def counts_like(x, dtype=np.int64):
    out = np.full(x.shape[0], 1, dtype)
    for i in range(x.shape[0]):
        if x[i] > 0:
            out[i] += 1
    return out


# check: counts_like(np.array([-1.0, 2.0, 3.0])) -> [1, 2, 2]
# check: counts_like(np.array([-1.0, 2.0]), np.float64) -> [1.0, 2.0]


@njit
def total_in(x, dtype=np.float64):
    acc = np.zeros(1, dtype)
    for v in x:
        acc[0] += v
    return acc[0]


# check: total_in(np.array([1, 2, 3])) -> 6.0
# check: total_in(np.array([100, 100, 100]), np.uint8) -> 44


@njit
def counting(n, dtype=None):
    # `dtype=None` is NumPy's default dtype, here int64 for an integer range.
    return np.arange(n, dtype=dtype)


# check: counting(3) -> [0, 1, 2]
# check: counting(3, np.float32) -> [0.0, 1.0, 2.0]
