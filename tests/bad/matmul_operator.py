# expect-error: the `@` (matrix multiply) operator is not supported
from numba import njit


@njit
def project(a, b):
    c = a @ b  # <-- here
    return c
