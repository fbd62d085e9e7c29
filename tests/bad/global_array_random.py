# expect-error: global `noise` is a NumPy array whose values only running the module gives
import numpy as np
from numba import njit

noise = np.random.rand(10)


@njit
def noisy(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * noise[i]  # <-- here
    return s
