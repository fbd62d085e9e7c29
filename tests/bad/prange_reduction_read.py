# expect-error: the running value of a reduction differs per thread, so reading it in the body is a race
import numpy as np
from numba import njit, prange


@njit("float64(float64[:], float64[:])", parallel=True)
def prefix(x, out):
    s = 0.0
    for i in prange(x.shape[0]):
        s += x[i]
        out[i] = s  # <-- here
    return s
