# expect-error: dict literal is not supported
from numba import njit


@njit
def lookup(k):
    table = {1: 10, 2: 20}  # <-- here
    return table[k]
