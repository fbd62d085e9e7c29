# expect-error: global `weights` is a NumPy array created at module level (not supported yet)
import numpy as np
from numba import njit

weights = np.ones(10)


@njit
def weighted(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * weights[i]  # <-- here
    return s
