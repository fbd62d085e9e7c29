"""NumPy ufuncs on scalars inside kernels: float32 clamping and rounding with np.minimum /
np.maximum / np.floor / np.sqrt (results exact in float32, so the simulator and compiled
numba-cuda agree), and integer np.floor_divide / np.mod with the NumPy error model (a zero
divisor gives 0 on the GPU)."""
import numpy as np
from numba import cuda


# check: clamp_f32[2, 4](np.array([-2.5, -0.25, 0.0, 0.5, 1.0, 1.75, np.nan], dtype=np.float32), np.zeros(7, dtype=np.float32)) -> None ; arg1 == [0.0, 0.0, 0.0, 0.5, 1.0, 1.0, math.nan]
@cuda.jit
def clamp_f32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = np.minimum(np.maximum(x[i], np.float32(0.0)), np.float32(1.0))


# check: quantize_f32[1, 8](np.array([0.3, 1.26, -0.74, 2.5, 9.0, -0.0], dtype=np.float32), np.zeros(6, dtype=np.float32), np.zeros(6, dtype=np.float32)) -> None ; arg1 == [0.25, 1.25, -0.75, 2.5, 9.0, -0.0] ; arg2 == [0.547722578048706, 1.1224972009658813, -0.8602325320243835, 1.5811388492584229, 3.0, 0.0]
@cuda.jit
def quantize_f32(x, q, r):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = np.floor(x[i] * np.float32(4.0)) / np.float32(4.0)
        r[i] = np.sqrt(np.abs(x[i])) * np.sign(x[i])


# check: int_ufuncs[1, 8](np.array([7, -7, 7, 0, 9], dtype=np.int64), np.array([2, 2, 0, 3, -4], dtype=np.int64), np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.int64)) -> None ; arg2 == [3, -4, 0, 0, -3] ; arg3 == [1, 1, 0, 0, -3]
@cuda.jit
def int_ufuncs(a, b, q, m):
    i = cuda.grid(1)
    if i < a.size:
        q[i] = np.floor_divide(a[i], b[i])
        m[i] = np.mod(a[i], b[i])
