# expect-error: cannot store array(float64, 1, C) in a list of float64
from numba import njit


@njit("(float64[:],)")
def collect(a):
    xs = [0.0]
    xs.append(a)  # <-- here
    return xs
