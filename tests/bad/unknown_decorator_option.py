# expect-error: unknown decorator option `fast_math` (the option is `fastmath`)
from numba import njit


@njit(fast_math=True)  # <-- here
def axpy(a, x, y):
    return a * x + y
