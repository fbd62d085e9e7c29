# expect-error: `is` between arrays (mutable in Numba) is not supported
from numba import njit


@njit("boolean(float64[:])")
def same_buffer(a):
    return a is a  # <-- here
