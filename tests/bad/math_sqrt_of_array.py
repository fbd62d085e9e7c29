# expect-error: math.sqrt expects a number, found an array
import math
from numba import njit


@njit("float64(float64[:])")
def root_first(a):
    r = math.sqrt(a)  # <-- here
    return r[0]
