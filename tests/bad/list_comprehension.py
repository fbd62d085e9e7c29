# expect-error: list comprehension is not supported
from numba import njit


@njit
def squares_sum(n):
    sq = [i * i for i in range(n)]  # <-- here
    s = 0
    for i in range(n):
        s += sq[i]
    return s
