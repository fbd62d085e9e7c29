# expect-error: recursive call of inner function `fact`
from numba import njit


@njit
def outer(n):
    def fact(m):
        if m <= 1:
            return 1
        return m * fact(m - 1)  # <-- here

    return fact(n)
