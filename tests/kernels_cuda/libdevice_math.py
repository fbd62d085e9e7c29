"""numba.cuda.libdevice in kernels: the float64 (`NAME`) and float32 (`NAMEf`) forms, their
argument conversions (an int64 to `sqrtf` becomes a float32), rsqrt, exp10, fma, fast_*f, and
the integer popc/clz/ffs/abs, sad, and sincos/frexp/modf (tuples).

Expected values: Numba's CUDA simulator has no libdevice, so verify_numba_cudasim.py shims it
with NumPy (each function at its fixed float type); the inputs are chosen so that the results
are exact (perfect squares and cubes, powers of two and ten, exact products for fma), where
libdevice, NumPy and the interpreter must agree to the bit. `--gpu` checks them under
numba-cuda on a GPU.
"""
import numpy as np
from numba import cuda
from numba.cuda import libdevice
from numba.cuda.libdevice import fast_expf, rsqrtf


# float64 functions with exact results.
# check: exact64[1, 4](np.array([4.0, 16.0, 0.25, 64.0]), np.zeros(4), np.zeros(4), np.zeros(4), np.zeros(4), np.zeros(4)) -> None ; arg1 == [2.0, 4.0, 0.5, 8.0] ; arg2 == [0.5, 0.25, 2.0, 0.125] ; arg3 == [4.0, 16.0, 0.25, 64.0] ; arg4 == [100.0, 10000.0, 0.01, 1000000.0] ; arg5 == [2.0, 4.0, -2.0, 6.0]
@cuda.jit
def exact64(x, root, inv_root, cube_root, ten_pow, log_two):
    i = cuda.grid(1)
    if i < x.size:
        root[i] = libdevice.sqrt(x[i])
        inv_root[i] = libdevice.rsqrt(x[i])
        cube_root[i] = libdevice.cbrt(x[i] * x[i] * x[i])
        ten_pow[i] = libdevice.exp10(libdevice.log2(x[i]))
        log_two[i] = libdevice.log2(x[i])


# float32 forms take float32: float64 and int64 arguments are converted first.
# check: exact32[1, 4](np.array([9.0, 2.25, 100.0, 0.0625]), np.array([3, 5, 7, 9]), np.zeros(4, dtype=np.float32), np.zeros(4, dtype=np.float32), np.zeros(4, dtype=np.float32)) -> None ; arg2 == [3.0, 1.5, 10.0, 0.25] ; arg3 == [0.3333333432674408, 0.6666666865348816, 0.10000000149011612, 4.0] ; arg4 == [4.5, 7.5, 10.5, 13.5]
@cuda.jit
def exact32(x, n, root, inv_root, scaled):
    i = cuda.grid(1)
    if i < x.size:
        root[i] = libdevice.sqrtf(x[i])
        inv_root[i] = rsqrtf(x[i])
        scaled[i] = libdevice.fmaf(n[i], np.float32(0.5), libdevice.sqrtf(n[i] * n[i]))


# Rounding and min/max give floats (libdevice's floor is a double, unlike math.floor).
# check: rounding[1, 6](np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.7]), np.array([0.0, np.nan, -3.0, 1.0, np.nan, 2.0]), np.zeros(6), np.zeros(6), np.zeros(6), np.zeros(6), np.zeros(6)) -> None ; arg2 == [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0] ; arg3 == [-2.0, -1.0, -0.0, 1.0, 2.0, 3.0] ; arg4 == [-2.0, -2.0, -0.0, 0.0, 2.0, 3.0] ; arg5 == [-2.0, -1.0, -0.0, 0.0, 1.0, 2.0] ; arg6 == [-2.5, -3.0, -3.5, 1.5, 3.0, 4.7]
@cuda.jit
def rounding(x, y, fl, ce, ri, tr, mx):
    i = cuda.grid(1)
    if i < x.size:
        fl[i] = libdevice.floor(x[i])
        ce[i] = libdevice.ceil(x[i])
        ri[i] = libdevice.rint(x[i])
        tr[i] = libdevice.trunc(x[i])
        mx[i] = libdevice.fmax(x[i], y[i]) + libdevice.fmin(x[i], y[i])


# Two-argument functions and fma with exact products; fast_expf(0) is exactly 1.
# check: binary[1, 4](np.array([3.0, 0.0, -5.0, 8.0]), np.array([4.0, 1.0, 12.0, 6.0]), np.zeros(4), np.zeros(4), np.zeros(4), np.zeros(4, dtype=np.float32)) -> None ; arg2 == [5.0, 1.0, 13.0, 10.0] ; arg3 == [20.0, 3.0, 4084.0, 70.0] ; arg4 == [12.5, 0.5, -59.5, 48.5] ; arg5 == [1.0, 1.0, 1.0, 1.0]
@cuda.jit
def binary(a, b, hyp, sign, fused, one):
    i = cuda.grid(1)
    if i < a.size:
        hyp[i] = libdevice.hypot(a[i], b[i])
        sign[i] = libdevice.copysign(b[i], a[i]) + libdevice.pow(2.0, b[i])
        fused[i] = libdevice.fma(a[i], b[i], 0.5)
        one[i] = fast_expf(a[i] - a[i])


# Integer functions: popc, clz and ffs count bits of int32 (and int64 for the ll forms).
# check: bits[1, 5](np.array([0, 1, 255, -1, 1024]), np.zeros(5, dtype=np.int32), np.zeros(5, dtype=np.int32), np.zeros(5, dtype=np.int32), np.zeros(5, dtype=np.int32), np.zeros(5, dtype=np.int32)) -> None ; arg1 == [0, 1, 8, 32, 1] ; arg2 == [32, 31, 24, 0, 21] ; arg3 == [0, 1, 1, 1, 11] ; arg4 == [0, 1, 8, 64, 1] ; arg5 == [100, 99, 155, 101, 924]
@cuda.jit
def bits(x, pop, lz, fs, pop64, mag):
    i = cuda.grid(1)
    if i < x.size:
        pop[i] = libdevice.popc(x[i])
        lz[i] = libdevice.clz(x[i])
        fs[i] = libdevice.ffs(x[i])
        pop64[i] = libdevice.popcll(x[i])
        mag[i] = libdevice.abs(x[i] - 100)


# The functions whose two results libdevice writes through a pointer come back as tuples:
# sincos (at 0 and pi/2, where both parts are exact), frexp, modf; and sad, |x - y| + z.
# check: pairs[1, 4](np.array([0.0, 8.0, -2.5, 0.75]), np.zeros(4), np.zeros(4), np.zeros(4, dtype=np.int32), np.zeros(4), np.zeros(4), np.array([3, -7, 100, 0], dtype=np.int32), np.zeros(4, dtype=np.uint32)) -> None ; arg1 == [1.0, 1.0, 1.0, 1.0] ; arg2 == [0.0, 0.5, -0.625, 0.75] ; arg3 == [0, 4, 2, 0] ; arg4 == [0.0, 0.0, -0.5, 0.75] ; arg5 == [0.0, 8.0, -2.0, 0.0] ; arg7 == [12, 22, 105, 15]
@cuda.jit
def pairs(x, sin_part, mantissa, exponent, frac, whole, k, sads):
    i = cuda.grid(1)
    if i < x.size:
        s, c = libdevice.sincos(x[i] * 0.0)
        sin_part[i] = s + c
        m, e = libdevice.frexp(x[i])
        mantissa[i] = m
        exponent[i] = e
        f, w = libdevice.modf(x[i])
        frac[i] = f
        whole[i] = w
        sads[i] = libdevice.sad(k[i], 5, 10)
