# expect-error: str() of float64 is not supported: twinjit converts integers, booleans and strings to strings
from numba import njit


@njit("int64(float64)")
def label_width(x):
    label = f"x = {x}"  # <-- here
    return len(label)
