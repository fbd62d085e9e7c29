# expect-error: bad signature: arrays of more than 3 dimensions are not supported
from numba import njit


@njit("float64(float64[:, :, :, :])")  # <-- here
def corner(t):
    return t[0, 0, 0, 0]
