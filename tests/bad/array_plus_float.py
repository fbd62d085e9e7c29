# expect-error: unsupported operand types for +: array and float64 (whole-array arithmetic)
from numba import njit


@njit("float64(float64[:])")
def shifted_first(a):
    b = a + 1.0  # <-- here
    return b[0]
