# expect-error: the class is fine at module level, but compiled code cannot use it
from numba import njit


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


@njit
def norm1(x, y):
    p = Point(x, y)  # <-- here
    return abs(x) + abs(y)
