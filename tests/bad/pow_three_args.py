# expect-error: pow() with a modulus: Numba has no three-argument pow
from numba import njit


@njit("int64(int64, int64, int64)")
def modpow(a, b, m):
    return pow(a, b, m)  # <-- here
