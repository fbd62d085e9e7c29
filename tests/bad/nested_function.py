# expect-error: nested function definitions are not supported
from numba import njit


@njit
def outer(x):
    def inner(y):  # <-- here
        return y * 2.0

    return inner(x) + 1.0
