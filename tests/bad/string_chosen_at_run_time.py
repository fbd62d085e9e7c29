# expect-error: type conflict: a variable is str("negative") here but str("pos") on another path
from numba import njit


@njit("int64(boolean)")
def label_length(positive):
    s = "pos"
    if not positive:
        s = "negative"  # <-- here
    return len(s)
