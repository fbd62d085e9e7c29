# expect-error: generators (yield) are not supported
from numba import njit


@njit
def countdown(n):
    while n > 0:
        yield n  # <-- here
        n -= 1
