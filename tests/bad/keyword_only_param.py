# expect-error: keyword-only parameters are not supported
from numba import njit


@njit
def scale(x, *, factor):  # <-- here
    return x * factor
