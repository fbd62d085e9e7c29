# expect-error: axpy() got multiple values for argument 'x'
from numba import njit


@njit
def axpy(a, x, y=0.0):
    return a * x + y


@njit
def main(x):
    return axpy(2.0, x, x=1.0)  # <-- here
