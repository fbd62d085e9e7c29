# expect-error: the Numba type `float16` is not supported yet (signature as type objects)
from numba import njit, float16, float64


@njit(float64(float16))  # <-- here
def widen(h):
    return h * 2.0
