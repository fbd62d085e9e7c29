# expect-error: *args parameters are not supported
from numba import njit


@njit
def total(*args):  # <-- here
    s = 0
    for i in range(len(args)):
        s += args[i]
    return s
