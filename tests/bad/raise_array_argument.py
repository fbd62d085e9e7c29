# expect-error: an exception argument is array(float64, 1, A); compiled code can raise with numbers and strings only
from numba import njit


@njit("float64(float64[:])")
def first(a):
    if a.shape[0] == 0:
        raise ValueError("empty", a)  # <-- here
    return a[0]
