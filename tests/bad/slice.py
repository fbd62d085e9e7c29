# expect-error: slicing float64[:] is not supported
from numba import njit


@njit("float64(float64[:])")
def middle_sum(a):
    b = a[1:3]  # <-- here
    return b[0] + b[1]
