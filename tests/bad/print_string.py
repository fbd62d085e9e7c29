# expect-error: string literal in print is not supported (strings unsupported)
from numba import njit


@njit
def report(x):
    print("value:", x)  # <-- here
    return x
