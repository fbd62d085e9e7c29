"""A whole module as users write it: imports twinjit does not compile, a plain Python helper,
@jit functions, and driver code at module level (an array from np.ones, a timing loop that
prints). twinjit reads the file without running it and compiles only the decorated functions."""
from __future__ import annotations

import timeit
import time, os, collections  # noqa: E401
import numpy as np
import numpy.typing as npt
from numba import cuda, jit
import numba as nb

N_ITER = 3
SCALE = 2.0 ** 3
LIMITS = (0.5, 4)
OFFSET = np.float32(0.5)
NOTHING = None
LABEL = "saxpy"
Stats = collections.namedtuple("Stats", ["best", "worst"])


def python_saxpy(a, x, y):
    """Plain Python reference: never compiled."""
    return [a * xi + yi for xi, yi in zip(x, y)]


# check: saxpy_sum(2.0, np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0, 1.0])) -> 15.0
# check: saxpy_sum(0.5, np.zeros(0), np.zeros(0)) -> 0.0
@jit
def saxpy_sum(a, x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += a * x[i] + y[i]
    return s


# check: scaled(3) -> 24.0
# check: scaled(-1) -> -8.0
@jit(nopython=True)
def scaled(k):
    return k * SCALE


# check: clamp(0.1) -> 0.5
# check: clamp(7.0) -> 4.0
# check: clamp(2.5) -> 2.5
@nb.jit(cache=False, nogil=True)
def clamp(x):
    lo, hi = LIMITS
    if x < lo:
        return lo
    if x > hi:
        return float(hi)
    return x


# float32 global: np.float32(0.5) + float32 stays float32.
# check: shift32(np.float32(1.25)) -> 1.75
@nb.njit
def shift32(x):
    return x + OFFSET


x = np.ones(1000)
y = np.ones(1000)
elapsed = []
for _ in range(N_ITER):
    t0 = time.perf_counter()
    saxpy_sum(2.0, x, y)
    elapsed.append(time.perf_counter() - t0)
best = min(elapsed)
print(LABEL, "best of", N_ITER, "runs:", best >= 0.0)
print("timeit:", timeit.timeit(lambda: scaled(2), number=3) >= 0.0)
