# expect-error: `np.zeros` is not supported (array creation inside a function)
import numpy as np
from numba import njit


@njit
def ramp(n):
    out = np.zeros(n)  # <-- here
    for i in range(n):
        out[i] = i
    return out
