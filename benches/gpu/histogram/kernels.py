"""The 256-bin histogram of issue 5, with shared-memory atomics: each block counts into a
shared-memory histogram, then adds it to the global one. The same file runs under numba-cuda
and twinjit; histogram.cu is the same algorithm in CUDA C++."""
import numpy as np
from numba import cuda

NBINS = 256


@cuda.jit
def histogram(x, bins):
    h = cuda.shared.array(NBINS, dtype=np.int32)
    t = cuda.threadIdx.x
    h[t] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < x.shape[0]:
        b = int(x[i] * np.float32(NBINS))
        if b > NBINS - 1:
            b = NBINS - 1
        cuda.atomic.add(h, b, 1)
        i += stride
    cuda.syncthreads()
    cuda.atomic.add(bins, t, h[t])
