# expect-error: this form of enumerate() is not supported
from numba import njit


@njit
def f(a):
    s = 0
    for i, x in enumerate(a, start=1):  # <-- here
        s += i * x
    return s
