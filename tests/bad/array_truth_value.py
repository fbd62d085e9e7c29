# expect-error: the truth value of an array is not defined (array used as an if condition)
from numba import njit


@njit("float64(float64[:])")
def first_or_zero(a):
    if a:  # <-- here
        return a[0]
    return 0.0
