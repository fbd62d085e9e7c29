# expect-error: `*t` of a tuple variable that fills named parameters of a `*args` function is not supported
from numba import njit


@njit
def scaled_total(scale, *args):
    s = 0
    for x in args:
        s += x
    return s * scale


@njit
def caller(x, y):
    t = (2, x, y)
    return scaled_total(*t)  # <-- here
