"""Kernel decorator and signature forms as numba-cuda users write them: `@cuda.jit` with
signatures as type objects (`void(float32[:], int32)`), `@numba.cuda.jit`,
`@nb.cuda.jit`, `@cuda.jit(device=True)`, options that change nothing here, and a file whose
module level drives the kernels with NumPy (cupy is not installed, so no cupy here).

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import math

import numba
import numba as nb
import numpy as np
from numba import cuda
from numba import float32, int32, void

TPB = 4
HALF = np.float32(0.5)


# check: scale_half[2, 4](np.arange(6, dtype=np.float32), 6) -> None ; arg0 == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5]
@cuda.jit(void(float32[:], int32), debug=False, opt=True)
def scale_half(a, n):
    i = cuda.grid(1)
    if i < n:
        a[i] = a[i] * HALF


@numba.cuda.jit(device=True, inline=True)
def hyp(x, y):
    return math.sqrt(x * x + y * y)


# check: hyp_all[1, 4](np.array([3.0, 5.0, 8.0]), np.array([4.0, 12.0, 15.0]), np.zeros(3)) -> None ; arg2 == [5.0, 13.0, 17.0]
@nb.cuda.jit
def hyp_all(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = hyp(x[i], y[i])


# check: add_one[1, 8](np.arange(5)) -> None ; arg0 == [1, 2, 3, 4, 5]
@cuda.jit(["void(int64[:])", void(numba.int32[:])])
def add_one(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] += 1


a = np.arange(8, dtype=np.float32)
if cuda.is_available():
    scale_half[2, TPB](a, 8)
print("host copy:", a[:2])


DEBUG_DEVICE = False


# An option given by a module constant.
@cuda.jit(device=True, debug=DEBUG_DEVICE)
def plus_one(x):
    return x + 1


# check: uses_options[1, 4](np.zeros(4)) -> None ; arg0 == [1.0, 2.0, 3.0, 4.0]
@cuda.jit
def uses_options(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = plus_one(i)


# The signature in a module-level variable (a string, and type objects), as numba-cuda's
# examples write `sig = 'void(float32[:], float32[:])'` then `@cuda.jit(sig)`.
copy_sig = "void(float32[:], float32[:])"
fill_sig = void(int32[:], int32)


# check: copy_scaled[1, 8](np.array([1.0, 2.0, 4.0], dtype=np.float32), np.zeros(3, dtype=np.float32)) -> None ; arg1 == [3.0, 6.0, 12.0]
@cuda.jit(copy_sig)
def copy_scaled(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] * 3


# check: fill_value[2, 4](np.zeros(6, dtype=np.int32), 7) -> None ; arg0 == [7, 8, 9, 10, 11, 12]
@cuda.jit(fill_sig)
def fill_value(a, v):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = v + i
