# expect-error: this keyword argument of sorted() is not supported
from numba import njit


@njit
def by_abs(a):
    return sorted(a, key=abs)  # <-- here
