# expect-error: integer literal does not fit in int64
from numba import njit


@njit
def offset(x):
    return x + 99999999999999999999  # <-- here
