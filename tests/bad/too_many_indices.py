# expect-error: too many indices for array: array is 1-dimensional, but 2 were indexed
from numba import njit


@njit("float64(float64[:])")
def corner(a):
    return a[0, 0]  # <-- here
