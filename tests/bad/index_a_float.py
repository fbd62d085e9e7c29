# expect-error: float64 is not subscriptable
from numba import njit


@njit("float64(float64, int64)")
def pick(x, i):
    return x[i]  # <-- here
