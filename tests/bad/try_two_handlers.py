# expect-error: a second `except` clause can never be reached
from numba import njit


@njit
def ratio(a, b):
    try:
        return a // b
    except Exception:
        return -1
    except:  # <-- here
        return -2
