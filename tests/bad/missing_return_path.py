# expect-error: returns nothing when x < 0 although the signature returns float64 (reported at the end of the function)
import math
from numba import njit


@njit("float64(float64)")
def safe_sqrt(x):
    if x >= 0.0:
        return math.sqrt(x)  # <-- here
