# expect-error: cuda.shared.array shape must be a compile-time constant, not the argument `n`
import numpy as np
from numba import cuda


@cuda.jit
def block_first(a, out, n):
    buf = cuda.shared.array(n, np.float32)  # <-- here
    i = cuda.threadIdx.x
    buf[i] = a[i]
    cuda.syncthreads()
    if i == 0:
        out[0] = buf[0]
