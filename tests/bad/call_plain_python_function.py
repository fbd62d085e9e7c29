# expect-error: call to `clamp`, a plain Python function that is not compiled (no @njit)
from numba import njit


def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@njit
def normalized(x):
    return clamp(x, 0.0, 1.0)  # <-- here
