# expect-error: break leaves a parallel loop early, but its iterations have no order to stop in
import numpy as np
from numba import njit, prange


@njit("int64(float64[:])", parallel=True)
def first_negative(x):
    found = 0
    for i in prange(x.shape[0]):
        if x[i] < 0:
            break  # <-- here
        x[i] = 1.0
    return found
