# expect-error: reversed() of anything but a range is not supported
from numba import njit


@njit
def last_negative(a):
    for x in reversed(a):  # <-- here
        if x < 0:
            return x
    return 0.0
