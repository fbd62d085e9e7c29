# expect-error: print() with sep= is refused, as Numba refuses it
from numba import njit


@njit
def report(x, y):
    print(x, y, sep=", ")  # <-- here
    return x
