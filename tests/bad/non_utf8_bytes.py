# expect-error: bytes that are not UTF-8 in the source
from numba import njit


@njit
def f(x):
    return x ÿþ + 1  # <-- here
