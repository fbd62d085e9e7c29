# expect-error: integer constant does not fit in int64 (CPython folds `1 << 64` past uint64 too)
from numba import njit


@njit
def past_bit_63(x):
    return x & (1 << 64)  # <-- here
