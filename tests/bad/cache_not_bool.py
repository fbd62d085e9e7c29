# expect-error: decorator option `cache` must be True or False, not a string
from numba import njit


@njit(cache="yes")  # <-- here
def cube(x):
    return x * x * x
