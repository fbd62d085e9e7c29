# expect-error: default value is not a constant
from numba import njit


@njit
def scale(x, factor=x0):  # <-- here
    return x * factor


@njit
def main(x):
    return scale(x, 3.0)
