# expect-error: cannot assign to module constant 'N' (global statement / global mutation)
from numba import njit

N = 1024


@njit
def resize(k):
    global N  # <-- here
    N = k
    return N
