# expect-error: `raise ... from ...` is not supported
from numba import njit


@njit
def check(x):
    if x < 0:
        raise ValueError("negative") from None  # <-- here
    return x
