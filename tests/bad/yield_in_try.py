# expect-error: `yield` inside a `try` statement is not supported
from numba import njit


@njit
def guarded(a):
    for i in range(a.shape[0]):
        try:
            yield a[i]  # <-- here
        except Exception:
            return


@njit("float64(float64[:])")
def consume(a):
    s = 0.0
    for v in guarded(a):
        s += v
    return s
