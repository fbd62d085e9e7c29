# expect-error: every iteration overwrites the whole of y, so which values survive depends on the schedule
import numpy as np
from numba import njit, prange


@njit("float64[:](float64[:])", parallel=True)
def last_fill(x):
    y = np.zeros(3)
    for i in prange(x.shape[0]):
        y.fill(x[i])  # <-- here
    return y
