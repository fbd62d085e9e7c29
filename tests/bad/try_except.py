# expect-error: try/except is not supported
from numba import njit


@njit
def safe_div(a, b):
    try:  # <-- here
        return a / b
    except ZeroDivisionError:
        return 0.0
