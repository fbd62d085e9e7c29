# expect-error: unknown attribute 'foo' on an array
from numba import njit


@njit("float64(float64[:])")
def f(a):
    n = a.foo  # <-- here
    return a[0] * n
