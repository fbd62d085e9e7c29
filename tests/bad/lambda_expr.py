# expect-error: lambda is not supported
from numba import njit


@njit
def apply(x):
    f = lambda y: y * 2  # <-- here
    return f(x)
