# expect-error: range() needs integer arguments, found float64 (CPython: TypeError; Numba: TypingError)
from numba import njit


@njit("float64(float64)")
def harmonic(x):
    s = 0.0
    for k in range(x):  # <-- here
        s += 1.0 / (k + 1)
    return s
