# expect-error: the Numba type `int8` is not supported yet (signature as type objects)
from numba import njit, int8, int64


@njit(int64(int8, int64))  # <-- here
def widen(a, b):
    return a + b
