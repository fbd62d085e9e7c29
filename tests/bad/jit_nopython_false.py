# expect-error: object mode (nopython=False) is not supported
from numba import jit


@jit(nopython=False)  # <-- here
def halve(x):
    return x / 2.0
