# expect-error: global `scale` is assigned twice at module level, so its compile-time value is not known
from numba import njit

scale = 2.0


@njit
def scaled(x):
    return x * scale  # <-- here


scale = 3.0
print(scaled(1.0))
