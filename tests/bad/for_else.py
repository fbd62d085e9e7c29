# expect-error: `for ... else` is not supported
from numba import njit


@njit
def find(a, v):
    for i in range(len(a)):  # <-- here
        if a[i] == v:
            break
    else:
        return -1
    return i
