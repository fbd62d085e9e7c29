# expect-error: the last value of a variable assigned in a prange body is undefined (the iterations run in any order)
import numpy as np
from numba import njit, prange


@njit("float64(float64[:])", parallel=True)
def last_square(x):
    sq = 0.0
    for i in prange(x.shape[0]):
        sq = x[i] * x[i]  # <-- here
        x[i] = sq
    return sq
