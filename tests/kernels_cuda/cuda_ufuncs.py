"""CUDA ufuncs: `@vectorize([...], target='cuda')`. twinjit compiles the function as a device
function and the ufunc as a kernel of one element per thread over the inputs and `out`
(an input of one element broadcasts), so the checks launch that kernel with an explicit
`out`; the Rust API (`Module::cuda_ufunc`) and numba-cuda call it as `f(a, b)`.

Expected values: numba-cuda's simulator has no CUDA ufuncs, so these are derived by hand
(exact arithmetic) and run under numba-cuda on the GPU with `verify_numba_cudasim.py --gpu`,
which calls the ufunc as `f(*inputs, out=out)`.
"""
import math

import numpy as np
from numba import cuda, vectorize


@vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")
def axpb(a, b):
    return 2 * a + b


# gpu-only: numba-cuda's simulator has no CUDA ufuncs
# check: axpb[1, 64](np.array([0.5, 1.0, -2.0, 3.25, 8.0]), np.array([1.0, 1.0, 0.5, -6.5, 0.0]), np.zeros(5)) -> None ; arg2 == [2.0, 3.0, -3.5, 0.0, 16.0]
# gpu-only: numba-cuda's simulator has no CUDA ufuncs
# check: axpb[2, 4](np.array([1.5, 2.5, 3.5, 4.5, 5.5, 6.5], dtype=np.float32), np.array([0.25], dtype=np.float32), np.zeros(6, dtype=np.float32)) -> None ; arg2 == [3.25, 5.25, 7.25, 9.25, 11.25, 13.25]


# A ufunc with a branch and a math call, on int64 inputs giving float64.
@vectorize(["float64(int64)"], target="cuda")
def safe_sqrt(x):
    if x < 0:
        return -math.sqrt(-x)
    return math.sqrt(x)


# gpu-only: numba-cuda's simulator has no CUDA ufuncs
# check: safe_sqrt[1, 32](np.array([0, 1, 4, -9, 16, -25, 100]), np.zeros(7)) -> None ; arg1 == [0.0, 1.0, 2.0, -3.0, 4.0, -5.0, 10.0]
