# expect-error: no `@overload_method` implementation of `.spread()` for a complex array
import numpy as np
from numba import njit, types
from numba.extending import overload_method


@overload_method(types.Array, "spread")
def _ol_spread(arr):  # <-- here
    if isinstance(arr.dtype, (types.Integer, types.Float)):
        def impl(arr):
            return arr.max() - arr.min()
        return impl


@njit("float64(complex128[:])")
def bad(z):
    return z.spread()
