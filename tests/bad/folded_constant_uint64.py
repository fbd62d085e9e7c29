# expect-error: integer constant does not fit in int64 (CPython folds `1 << 63` to a uint64)
from numba import njit


@njit
def sign_bit(x):
    return x & (1 << 63)  # <-- here
