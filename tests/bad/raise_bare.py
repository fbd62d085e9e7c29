# expect-error: a bare `raise` (re-raising) is not supported
from numba import njit


@njit
def check(x):
    if x < 0:
        raise  # <-- here
    return x
