# expect-error: `None` as a default value is not supported yet
from numba import njit


@njit
def clip(x, hi=None):  # <-- here
    return x
