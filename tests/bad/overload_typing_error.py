# expect-error: an `@overload` rejects the argument types with TypingError
from numba import njit, types
from numba.core.errors import TypingError
from numba.extending import overload


def area(shape):
    pass


@overload(area)
def _ol_area(shape):
    if isinstance(shape, types.UniTuple) and isinstance(shape.dtype, types.Integer):
        def impl(shape):
            return shape[0] * shape[1]
        return impl
    raise TypingError("area() takes a tuple of integers")  # <-- here


@njit("float64(float64)")
def bad(x):
    return area(x)
