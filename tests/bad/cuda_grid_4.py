# expect-error: cuda.grid() takes a literal 1, 2 or 3 (not 4)
from numba import cuda


@cuda.jit
def fill(a):
    i = cuda.grid(4)  # <-- here
    a[i] = 1.0
