# expect-error: a list's elements must have one type
from numba import njit


@njit("(int64,)")
def pairs(n):
    xs = [n, (n, 1.0)]  # <-- here
    return len(xs)
