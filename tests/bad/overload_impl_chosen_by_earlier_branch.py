# expect-error: a twinjit limitation, reported rather than guessed: the implementation returned
# depends on which branch of an earlier `if` ran (Numba accepts this overload)
from numba import njit, types
from numba.core.errors import TypingError
from numba.extending import overload


def twice(x):
    pass


@overload(twice)
def _ol_twice(x):
    def impl(x):
        return x + x

    if isinstance(x, types.Float):
        def impl(x):
            return x * 2.0
    if not isinstance(x, (types.Integer, types.Float)):
        raise TypingError("twice() takes a number")
    return impl  # <-- here


@njit("float64(float64)")
def bad(x):
    return twice(x)
