# expect-error: `TWO_64` is 18446744073709551616, which does not fit in 64 bits
from numba import njit

TWO_64 = 1 << 64  # <-- here


@njit
def has_bit(x):
    return x & TWO_64 != 0
