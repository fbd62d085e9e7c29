# expect-error: object mode (forceobj=True) is not supported
from numba import jit


@jit(forceobj=True)  # <-- here
def halve(x):
    return x / 2.0
