# expect-error: generators (`yield`) are compiled only as the iterable of a `for` loop
from numba import njit


@njit
def countdown(n):
    while n > 0:
        yield n  # <-- here
        n -= 1


# The generator compiles where a loop iterates it (this function); on its own it does not.
@njit
def total(n):
    s = 0
    for v in countdown(n):
        s += v
    return s
