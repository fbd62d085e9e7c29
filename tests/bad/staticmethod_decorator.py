# expect-error: unsupported decorator `staticmethod` (not a JIT decorator)
from numba import njit


@njit
@staticmethod  # <-- here
def area(w, h):
    return w * h
