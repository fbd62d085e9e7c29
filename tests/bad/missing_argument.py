# expect-error: axpy() missing 2 required positional arguments: 'a' and 'x'
from numba import njit


@njit
def axpy(a, x, y=0.0):
    return a * x + y


@njit
def main(x):
    return axpy(y=x)  # <-- here
