# expect-error: `SIGN_BIT` is 9223372036854775808, which Numba would type as uint64
from numba import njit

SIGN_BIT = 1 << 63  # <-- here


@njit
def has_sign_bit(x):
    return x & SIGN_BIT != 0
