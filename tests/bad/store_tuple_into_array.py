# expect-error: cannot store a tuple into an element of a float64 array
from numba import njit


@njit("void(float64[:], float64)")
def fill_pair(a, x):
    a[0] = (x, x + 1.0)  # <-- here
