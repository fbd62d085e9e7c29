# expect-error: exception class `ValueError` used as a value
from numba import njit


@njit
def check(x):
    e = ValueError  # <-- here
    return x
