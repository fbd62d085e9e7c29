# expect-error: lists are not supported
from numba import njit


@njit
def total():
    s = 0.0
    for x in [1.0, 2.0, 3.0]:  # <-- here
        s += x
    return s
