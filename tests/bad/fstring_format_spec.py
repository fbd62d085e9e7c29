# expect-error: an f-string field with a conversion, a format spec or `=` is not supported
from numba import njit


@njit("float64(float64)")
def checked(x):
    if x < 0:
        raise ValueError(f"negative: {x:.3f}")  # <-- here
    return x
