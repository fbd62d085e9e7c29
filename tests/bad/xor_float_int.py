# expect-error: unsupported operand types for ^: float64 and int64 (`^` is xor, not power)
from numba import njit


@njit("float64(float64)")
def square(x):
    return x ^ 2  # <-- here
