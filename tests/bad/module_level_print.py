# expect-error: driver code at module level is fine, but a compiled function reads a global it computed
import time

from numba import njit

t0 = time.perf_counter()


@njit
def double(x):
    return 2.0 * x + t0  # <-- here


print(double(3.0))
