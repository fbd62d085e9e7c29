# expect-error: more than one JIT decorator on one function
from numba import jit, njit


@njit
@jit(nopython=True)  # <-- here
def square(x):
    return x * x
