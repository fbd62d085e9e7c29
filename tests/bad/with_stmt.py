# expect-error: with statement is not supported
from numba import njit


@njit
def total(a, lock):
    s = 0.0
    with lock:  # <-- here
        for i in range(a.shape[0]):
            s += a[i]
    return s
