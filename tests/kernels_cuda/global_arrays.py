"""Module-level NumPy arrays read by kernels and device functions: frozen into the module as
constants, as numba-cuda does (filter taps, lookup tables, a 2-D stencil).

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py)."""
import numpy as np
from numba import cuda

TAPS = np.array([0.125, 0.25, 0.25, 0.25, 0.125])
SQUARES = np.array([0, 1, 4, 9, 16, 25, 36, 49], dtype=np.int32)
LAPLACE = np.array([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]], dtype=np.float32)
HALVES = np.linspace(0.0, 3.5, 8, dtype=np.float32)


# A 5-tap FIR filter over the valid part of the signal.
# check: fir[1, 8](np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]), np.zeros(4)) -> None ; arg1 == [3.0, 4.0, 5.0, 6.0]
@cuda.jit
def fir(x, out):
    i = cuda.grid(1)
    if i < out.size:
        acc = 0.0
        for k in range(TAPS.size):
            acc += TAPS[k] * x[i + k]
        out[i] = acc


@cuda.jit(device=True)
def square_of(v):
    return SQUARES[v % SQUARES.size]


# A lookup table read through a device function.
# check: squares_of[1, 8](np.array([0, 3, 7, 9, 12], dtype=np.int32), np.zeros(5, dtype=np.int32)) -> None ; arg1 == [0, 9, 49, 1, 16]
@cuda.jit
def squares_of(idx, out):
    i = cuda.grid(1)
    if i < idx.size:
        out[i] = square_of(idx[i])


# A 3x3 stencil with the weights in a module-level 2-D array.
# check: laplace[(1, 1), (4, 4)](np.array([[1.0, 1.0, 1.0, 1.0], [1.0, 5.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 2.0]], dtype=np.float32), np.zeros((4, 4), dtype=np.float32)) -> None ; arg1 == [[0.0, 0.0, 0.0, 0.0], [0.0, -16.0, 4.0, 0.0], [0.0, 4.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
@cuda.jit
def laplace(img, out):
    i, j = cuda.grid(2)
    n, m = img.shape
    if 0 < i < n - 1 and 0 < j < m - 1:
        acc = np.float32(0.0)
        for di in range(3):
            for dj in range(3):
                acc += LAPLACE[di, dj] * img[i + di - 1, j + dj - 1]
        out[i, j] = acc


# check: halves[1, 8](np.zeros(8, dtype=np.float32)) -> None ; arg0 == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5]
@cuda.jit
def halves(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = HALVES[i]


# numba-cuda's constant memory: `cuda.const.array_like` of a module-level array.
# check: const_lookup[1, 8](np.array([7, 0, 3, 12], dtype=np.int32), np.zeros(4, dtype=np.int32)) -> None ; arg1 == [49, 0, 9, 16]
@cuda.jit
def const_lookup(idx, out):
    table = cuda.const.array_like(SQUARES)
    i = cuda.grid(1)
    if i < idx.size:
        out[i] = table[idx[i] % table.size]


ROOTS4 = np.array([1, 1j, -1, -1j])


# A complex table: the input turned by the fourth roots of unity.
# check: spin[1, 8](np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.zeros(5, dtype=np.complex128)) -> None ; arg1 == [(1+0j), 2j, (-3+0j), -4j, (5+0j)]
@cuda.jit
def spin(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = ROOTS4[i % 4] * x[i]


# Module-level names for dtypes, as kernels written for one precision spell them: an alias of a
# type imported from numba, and the dtype of a module-level array through numba's
# `numpy_support.from_dtype`.
from numba import float32 as f32  # noqa: E402
from numba.np import numpy_support  # noqa: E402

ACC_T = f32
TABLE_T = numpy_support.from_dtype(SQUARES.dtype)


# check: staged_scale[1, 8](np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], dtype=np.float32), np.zeros(8, dtype=np.float32)) -> None ; arg1 == [4.0, 4.5, 7.0, 11.5, 18.0, 26.5, 37.0, 49.5]
@cuda.jit
def staged_scale(x, out):
    buf = cuda.shared.array(8, dtype=ACC_T)
    sq = cuda.shared.array(8, dtype=TABLE_T)
    i = cuda.threadIdx.x
    buf[i] = x[i] * ACC_T(0.5)
    sq[i] = SQUARES[i]
    cuda.syncthreads()
    out[i] = buf[7 - i] + sq[i]
