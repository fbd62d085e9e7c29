# expect-error: class definitions are not supported
from numba import njit


class Point:  # <-- here
    def __init__(self, x, y):
        self.x = x
        self.y = y


@njit
def norm1(x, y):
    return abs(x) + abs(y)
