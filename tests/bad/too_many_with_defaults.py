# expect-error: axpy() takes from 2 to 3 positional arguments but 4 were given
from numba import njit


@njit
def axpy(a, x, y=0.0):
    return a * x + y


@njit
def main(x):
    return axpy(2.0, x, 1.0, 0.0)  # <-- here
