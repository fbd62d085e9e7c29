# expect-error: hypot2() takes 2 positional arguments but 3 were given
from numba import njit


@njit
def hypot2(x, y):
    return x * x + y * y


@njit
def main(x):
    return hypot2(x, 1.0, 2.0)  # <-- here
