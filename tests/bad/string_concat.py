# expect-error: string literals and string concatenation are not supported
from numba import njit


@njit
def greet(n):
    s = "a" + "b"  # <-- here
    return n
