# expect-error: one reduction variable updated with both + and *: the partial results cannot be combined
from numba import njit, prange


@njit("float64(int64)", parallel=True)
def mixed(n):
    s = 1.0
    for i in prange(n):
        s += i
        s *= 2.0  # <-- here
    return s
