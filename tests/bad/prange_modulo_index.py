# expect-error: i % 4 maps many iterations to one element, so their updates race
import numpy as np
from numba import njit, prange


@njit("float64[:](float64[:])", parallel=True)
def folded(x):
    y = np.zeros(4)
    for i in prange(x.shape[0]):
        y[i % 4] += x[i]  # <-- here
    return y
