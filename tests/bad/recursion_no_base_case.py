# expect-error: cannot infer the return type of `descend` (recursion with no base case, no declared return type)
from numba import njit


@njit("(int64,)")
def descend(n):  # <-- here
    return descend(n - 1)
