"""CUDA kernels used by the examples. The same file runs under numba-cuda."""
import math

from numba import cuda


@cuda.jit
def vecadd(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


@cuda.jit(device=True)
def decay(x, rate):
    return math.exp(-rate * x)


@cuda.jit
def exp_decay(x, rate, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = decay(x[i], rate)


@cuda.jit
def fill_array(a):
    # A grid-stride loop: any grid covers the whole array.
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for k in range(start, a.shape[0], stride):
        a[k] += 1.0
