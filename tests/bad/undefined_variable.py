# expect-error: use of undefined variable 'total'
from numba import njit


@njit
def accumulate(a):
    for i in range(a.shape[0]):
        total += a[i]  # <-- here
    return total
