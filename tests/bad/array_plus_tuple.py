# expect-error: type error: cannot add a tuple to an array
from numba import njit


@njit("float64(float64[:])")
def shift(a):
    t = (1.0, 2.0)
    b = a + t  # <-- here
    return b[0]
