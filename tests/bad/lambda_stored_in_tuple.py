# expect-error: lambda used as a value
from numba import njit


@njit
def pair(x):
    t = (x, lambda y: y + 1)  # <-- here
    return t[0]
