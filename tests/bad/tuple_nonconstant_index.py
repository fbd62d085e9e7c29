# expect-error: cannot index the heterogeneous tuple
from numba import njit


@njit("float64(float64, int64, int64)")
def choose(x, n, k):
    t = (x, n)
    return t[k]  # <-- here
