# expect-error: twinjit finds a namedtuple field by name; two classes put `y` at different places
from collections import namedtuple
from numba import njit

Point = namedtuple("Point", ["x", "y"])
Pixel = namedtuple("Pixel", ["y", "x", "color"])


@njit("float64(float64, float64)")
def height(a, b):
    p = Point(a, b)
    return p.y  # <-- here
