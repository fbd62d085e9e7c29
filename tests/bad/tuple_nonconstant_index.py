# expect-error: tuple index must be a constant integer
from numba import njit


@njit("float64(float64, float64, int64)")
def choose(x, y, k):
    t = (x, y)
    return t[k]  # <-- here
