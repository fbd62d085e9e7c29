# expect-error: inner function `g` used as a value
from numba import njit


@njit
def make(k):
    def g(y):
        return y * k

    return g  # <-- here
