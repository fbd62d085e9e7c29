# expect-error: the `is` comparison (x is None) is not supported
from numba import njit


@njit
def value_or_zero(x):
    if x is None:  # <-- here
        return 0.0
    return x
