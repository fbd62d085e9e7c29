"""Device functions made by calling `cuda.jit` on plain Python functions at module level
(`dev = cuda.jit(device=True)(pyfunc)`, with a signature, or `cuda.jit(f)`), and constant
arrays computed by arithmetic on NumPy arrays (`np.arange(10) / 2.0`, reversed, complex),
read directly and through `cuda.const.array_like`.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py)."""
import numpy as np
from numba import cuda


def scale_py(v, k):
    return v * k + 1


def lerp_py(a, b, t):
    return a + (b - a) * t


scale = cuda.jit(device=True)(scale_py)
lerp = cuda.jit("float64(float64, float64, float64)", device=True)(lerp_py)

HALVES = np.arange(10, dtype=np.float64) / 2.0
BACKWARDS = np.arange(8, dtype=np.int32)[::-1] * 3
ROTATED = (np.arange(4, dtype=np.complex128) + 1j) / 2j
BLEND = np.linspace(0.0, 1.0, 5) ** 2


# check: apply[1, 8](np.arange(8, dtype=np.float64), np.zeros(8)) -> None ; arg1 == [1.0, 4.625, 9.5, 15.625, 23.0, 16.0, 19.625, 24.5]
@cuda.jit
def apply(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = scale(x[i], 3.0) + lerp(0.0, 10.0, BLEND[i % BLEND.size])


# check: from_const[1, 8](np.zeros(8), np.zeros(8, dtype=np.int32)) -> None ; arg0 == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0] ; arg1 == [21, 18, 15, 12, 9, 6, 3, 0]
@cuda.jit
def from_const(out, back):
    c = cuda.const.array_like(HALVES)
    i = cuda.grid(1)
    if i < out.size:
        out[i] = c[i] + c[i + 2]
        back[i] = BACKWARDS[i]


# check: rotate[1, 4](np.zeros(4), np.zeros(4)) -> None ; arg0 == [0.5, 0.5, 0.5, 0.5] ; arg1 == [0.0, -0.5, -1.0, -1.5]
@cuda.jit
def rotate(re, im):
    i = cuda.grid(1)
    if i < re.size:
        z = ROTATED[i]
        re[i] = z.real
        im[i] = z.imag
