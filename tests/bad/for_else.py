# expect-error: comprehensions are not supported
from numba import njit


@njit
def find(a, v):
    for x in (y * 2 for y in a):  # <-- here
        if x == v:
            break
    else:
        return -1
    return 0
