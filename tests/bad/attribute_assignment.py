# expect-error: assigning to an attribute (p.x = ...) is not supported
from numba import njit


@njit
def move(p, dx):
    p.x = dx  # <-- here
    return dx
