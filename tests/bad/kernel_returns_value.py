# expect-error: a kernel cannot return a value (device=False: numba-cuda would compile a
# plain @cuda.jit function that returns a value as a device function)
from numba import cuda


@cuda.jit(device=False)
def first(a):
    return a[0]  # <-- here
