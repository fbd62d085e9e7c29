# expect-error: duplicate parameter 'x' (CPython: SyntaxError: duplicate argument)
from numba import njit


@njit
def scale(x, x):  # <-- here
    return x * 2.0
