# expect-error: an array reduction's running value differs per thread, so reading it in the body races
import numpy as np
from numba import njit, prange


@njit("float64(float64[:])", parallel=True)
def peek(x):
    y = np.zeros(2)
    t = 0.0
    for i in prange(x.shape[0]):
        y += x[i]
        x[i] = y[0]  # <-- here
    return y.sum()
