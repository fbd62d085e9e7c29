# expect-error: global statement is not supported
from numba import njit

SCALE = 0.5


@njit
def scaled(x):
    global SCALE  # <-- here
    return x * SCALE
