# expect-error: inner function `f` used as a value
from numba import njit


@njit
def apply(x):
    f = lambda y: y * 2
    return abs(f) + x  # <-- here
