# expect-error: type conflict: variable 'v' is an array in one branch and a float in the other
from numba import njit


@njit("float64(float64[:], boolean)")
def pick(a, flag):
    if flag:
        v = a
    else:
        v = 2.5  # <-- here
    return v * 2.0
