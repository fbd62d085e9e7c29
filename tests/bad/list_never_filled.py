# expect-error: cannot infer the type of this list's elements
from numba import njit


@njit("(int64,)")
def count(n):
    xs = []  # <-- here
    return len(xs) + n
