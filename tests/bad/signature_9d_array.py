# expect-error: bad signature: an array of 9 dimensions: twinjit's arrays have 1 to 8
from numba import njit


@njit("float64(float64[:, :, :, :, :, :, :, :, :])")  # <-- here
def corner(t):
    return t[0, 0, 0, 0, 0, 0, 0, 0, 0]
