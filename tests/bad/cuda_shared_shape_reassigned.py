# expect-error: a shared array's shape from a local assigned twice is not a constant
import numpy as np
from numba import cuda


@cuda.jit
def first_of_block(a, out):
    n = 32
    if a.size > 1000:
        n = 64
    buf = cuda.shared.array(n, np.float64)  # <-- here
    i = cuda.threadIdx.x
    buf[i] = a[i]
    cuda.syncthreads()
    if i == 0:
        out[0] = buf[0]
