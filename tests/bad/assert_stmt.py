# expect-error: the assert statement is not supported
import math
from numba import njit


@njit
def checked_sqrt(x):
    assert x >= 0.0  # <-- here
    return math.sqrt(x)
