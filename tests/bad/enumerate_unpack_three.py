# expect-error: cannot unpack 2 values into 3 names
from numba import njit


@njit
def f(a):
    s = 0
    for i, x, y in enumerate(a):  # <-- here
        s += i
    return s
