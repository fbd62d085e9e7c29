# expect-error: tuple index 2 out of range for a 2-tuple
from numba import njit


@njit("float64(float64, float64)")
def third(x, y):
    t = (x, y)
    return t[2]  # <-- here
