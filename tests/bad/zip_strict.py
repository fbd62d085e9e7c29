# expect-error: this form of zip() is not supported
from numba import njit


@njit
def dot(a, b):
    s = 0.0
    for x, y in zip(a, b, strict=True):  # <-- here
        s += x * y
    return s
