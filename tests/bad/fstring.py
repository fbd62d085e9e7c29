# expect-error: f-strings are not supported
from numba import njit


@njit
def greet(n):
    s = f"n = {n}"  # <-- here
    return n
