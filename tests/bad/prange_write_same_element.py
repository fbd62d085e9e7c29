# expect-error: every iteration adds into y[0] at once on several threads (Numba gives wrong sums)
import numpy as np
from numba import njit, prange


@njit("float64[:](float64[:])", parallel=True)
def running(x):
    y = np.zeros(1)
    for i in prange(x.shape[0]):
        y[0] += x[i]  # <-- here
    return y
