# expect-error: an exception carries at most 7 values computed at run time
from numba import njit


@njit
def check(a, b, c, d):
    if a > b:
        raise ValueError("out of order", a, b, c, d, a + 1, b + 1, c + 1, d + 1)  # <-- here
    return a
