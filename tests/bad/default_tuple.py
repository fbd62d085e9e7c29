# expect-error: tuple default values are not supported yet
from numba import njit


@njit
def shift(x, by=(1, 2)):  # <-- here
    return x + by[0]
