# expect-error: default values of kernel parameters are not supported
from numba import cuda


@cuda.jit
def fill(out, value=1.0):  # <-- here
    i = cuda.grid(1)
    if i < out.size:
        out[i] = value
