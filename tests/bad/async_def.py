# expect-error: `async def` is not supported (a coroutine cannot be compiled)
from numba import njit


@njit
async def twice(x):  # <-- here
    return x * 2
