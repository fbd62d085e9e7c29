# expect-error: the exception cannot be stored in a variable (`err`)
from numba import njit


@njit
def parse_or_zero(x):
    try:
        if x < 0:
            raise ValueError("negative")
        return x
    except Exception as err:  # <-- here
        return 0
