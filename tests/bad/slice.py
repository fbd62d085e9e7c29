# expect-error: slicing (a[1:3]) is not supported
from numba import njit


@njit
def middle_sum(a):
    b = a[1:3]  # <-- here
    return b[0] + b[1]
