# expect-error: an exception carries at most 3 values computed at run time
from numba import njit


@njit
def check(a, b, c, d):
    if a > b:
        raise ValueError("out of order", a, b, c, d)  # <-- here
    return a
