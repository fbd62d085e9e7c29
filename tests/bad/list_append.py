# expect-error: list literal and list.append are not supported
from numba import njit


@njit
def collect(n):
    xs = [0, 1]  # <-- here
    for i in range(n):
        xs.append(i)
    return xs[0]
