# expect-error: exception matching is limited to `Exception`
from numba import njit


@njit
def safe_div(a, b):
    try:
        return a / b
    except ZeroDivisionError:  # <-- here
        return 0.0
