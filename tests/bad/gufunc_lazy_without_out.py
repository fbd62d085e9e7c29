# expect-error: a gufunc without signatures needs its output passed (Numba's rule)
import numpy as np
from numba import guvectorize, njit


@guvectorize("(n)->()")
def total(x, res):
    res[0] = x.sum()


@njit("float64(float64[:])")
def caller(a):
    return total(a)  # <-- here
