# expect-error: iterating an array directly (for x in a) is not supported; only range/prange
from numba import njit


@njit
def total(a):
    s = 0.0
    for x in a:  # <-- here
        s += x
    return s
