# expect-error: a plain Python function cannot be passed to compiled code; decorate it
from numba import njit


def helper(x):
    return x + 1


@njit
def apply(f, x):
    return f(x)


@njit("int64(int64)")
def caller(x):
    return apply(helper, x)  # <-- here
