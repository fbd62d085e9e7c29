# expect-error: `await` is not supported
from numba import njit


@njit
def wait_for(x):
    y = await x  # <-- here
    return y + 1
