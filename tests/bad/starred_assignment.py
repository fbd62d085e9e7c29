# expect-error: starred assignment (a, *b = t) is not supported
from numba import njit


@njit
def head(x):
    t = (x, x + 1.0, x + 2.0)
    first, *rest = t  # <-- here
    return first
