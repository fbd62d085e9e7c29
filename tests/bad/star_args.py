# expect-error: `*t` of a tuple variable in a call of a `*args` function is not supported
from numba import njit


@njit
def total(*args):
    s = 0
    for x in args:
        s += x
    return s


@njit
def caller(x, y):
    t = (x, y)
    return total(*t)  # <-- here
