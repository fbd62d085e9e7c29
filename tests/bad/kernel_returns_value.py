# expect-error: a kernel cannot return a value
from numba import cuda


@cuda.jit
def first(a):
    return a[0]  # <-- here
