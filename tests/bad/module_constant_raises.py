# expect-error: evaluating `SCALE = 1 / (N - 8)` raises ZeroDivisionError: division by zero
from numba import njit

N = 8
SCALE = 1 / (N - 8)  # <-- here


@njit
def scaled(x):
    return x * SCALE
