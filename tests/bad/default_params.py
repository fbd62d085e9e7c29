# expect-error: default parameter values are not supported
from numba import njit


@njit
def scale(x, factor=2.0):  # <-- here
    return x * factor


@njit
def main(x):
    return scale(x, 3.0)
