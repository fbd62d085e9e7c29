# expect-error: the Numba type `unicode_type` is not supported yet (signature as type objects)
from numba import njit, float64, types


@njit(float64(types.unicode_type))  # <-- here
def width(s):
    return 2.0
