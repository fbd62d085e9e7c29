# expect-error: prev is read before it is assigned in the body, so each iteration depends on the one before
import numpy as np
from numba import njit, prange


@njit("float64[:](float64[:])", parallel=True)
def differences(x):
    out = np.zeros(x.shape[0])
    prev = 0.0
    for i in prange(x.shape[0]):
        out[i] = x[i] - prev  # <-- here
        prev = x[i]
    return out
