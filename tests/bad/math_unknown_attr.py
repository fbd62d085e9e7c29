# expect-error: unknown attribute 'foo' of module math
import math
from numba import njit


@njit
def f(x):
    return math.foo(x)  # <-- here
