"""Device functions with default parameter values, called from kernels with trailing
arguments omitted.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py). Keyword calls of device
functions bind in the front end exactly as host calls do (tests/kernels/defaults_keywords.py);
they are not checked here because the simulator's device-function wrapper takes no keywords.
"""
import numpy as np
from numba import cuda

GAIN = 2


@cuda.jit(device=True)
def affine(x, scale=GAIN, shift=0.5):
    return x * scale + shift


# check: defaults_kernel[1, 4](np.array([0.0, 1.0, 2.0, 3.0]), np.zeros(4)) -> None ; arg1 == [1.0, 7.0, 13.0, 19.0]
@cuda.jit
def defaults_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = affine(x[i]) + affine(x[i], 3) + affine(x[i], 1, 0.0)
