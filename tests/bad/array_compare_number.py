# expect-error: cannot compare an array with a number
from numba import njit


@njit("int64(float64[:])")
def count_if_positive(a):
    if a > 0.0:  # <-- here
        return len(a)
    return 0
