# expect-error: no overload returns an implementation for float64
from numba import njit, types
from numba.extending import overload


def twice(x):
    pass


@overload(twice)
def _ol_twice(x):  # <-- here
    if isinstance(x, types.Integer):
        def impl(x):
            return 2 * x
        return impl


@njit("float64(float64)")
def bad(x):
    return twice(x)
