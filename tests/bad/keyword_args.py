# expect-error: keyword arguments in calls to user functions are not supported
from numba import njit


@njit
def axpy(a, x, y):
    return a * x + y


@njit
def main(x):
    return axpy(2.0, x, y=1.0)  # <-- here
