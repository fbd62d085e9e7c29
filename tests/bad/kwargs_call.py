# expect-error: `**kwargs` in calls is not supported
from numba import njit


@njit
def axpy(a, x, y=0.0):
    return a * x + y


@njit
def main(x):
    return axpy(2.0, x, **x)  # <-- here
