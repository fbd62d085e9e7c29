# expect-error: a 2-D array needs 2 indices, found 1
from numba import njit


@njit("void(float64[:, :])")
def fill_second_row(a):
    a[1] = 42.0  # <-- here
