# expect-error: bad signature string: unknown type 'floaty'
from numba import njit


@njit("float64(floaty[:])")  # <-- here
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s
