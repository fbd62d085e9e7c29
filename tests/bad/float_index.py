# expect-error: array index must be an integer, found float64 (n / 2 is a float)
from numba import njit


@njit("float64(float64[:])")
def middle(a):
    n = len(a)
    return a[n / 2]  # <-- here
