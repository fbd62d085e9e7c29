"""float16 in kernels, as numba-cuda has it: half-precision arrays and scalars, the operators on
them (every result rounded to float16), numba-cuda's promotion rules (float16 with int8 stays
float16, with float32 becomes float32, with an int64 literal float64), the `math` functions
numba-cuda has a float16 loop for, the `cuda.fp16` intrinsics, shared arrays and device
functions with `f2` signatures.

Expected values: Numba's CUDA simulator (NumPy float16 arithmetic). The inputs keep products
exact, so fused and unfused multiply-adds agree (a GPU contracts `a * x + y` into one
`fma.rn.f16`, the simulator does not); `--gpu` checks the same lines under numba-cuda.
"""
import math

import numpy as np
from numba import cuda


# float16 arithmetic rounds each result: 2049 is not a float16, 2048 + 1 stays 2048.
# check: half_axpy[1, 6](np.zeros(6, dtype=np.float16), np.float16(0.5), np.array([1.0, 2.0, 3.0, 2048.0, -7.0, 0.25], dtype=np.float16), np.array([0.5, 0.25, -1.0, 1.0, 3.5, 1024.0], dtype=np.float16)) -> None ; arg0 == [1.0, 1.25, 0.5, 1025.0, 0.0, 1024.0]
@cuda.jit
def half_axpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


# Sums of float16 round at every step: 1 + 2048 is 2048 again, so the order shows.
# check: half_running_sum[1, 1](np.array([2048.0, 1.0, 1.0, 1.0, 1.0], dtype=np.float16), np.zeros(1, dtype=np.float16), np.zeros(1, dtype=np.float32)) -> None ; arg1 == [2048.0] ; arg2 == [2052.0]
@cuda.jit
def half_running_sum(x, total16, total32):
    s = x[0]
    w = np.float32(x[0])
    for k in range(1, x.size):
        s += x[k]
        w += x[k]
    total16[0] = s
    total32[0] = w


# Promotion: with int8 a float16 stays float16; with float32 it is float32; with an int
# literal (int64) float64 (numba-cuda's typing; NumPy's simulator keeps float16 there, so the
# inputs make the sum exact either way); float16 / float16 stays float16.
# check: promotions[1, 4](np.array([0.5, 1.5, 3.0, 1000.0], dtype=np.float16), np.array([0.1, 1.5, 3.0, 1000.0], dtype=np.float32), np.zeros(4, dtype=np.float16), np.zeros(4, dtype=np.float32), np.zeros(4), np.zeros(4, dtype=np.float16)) -> None ; arg2 == [1.5, 2.5, 4.0, 1001.0] ; arg3 == [0.6000000238418579, 3.0, 6.0, 2000.0] ; arg4 == [1.5, 2.5, 4.0, 1001.0] ; arg5 == [0.1666259765625, 0.5, 1.0, 333.25]
@cuda.jit
def promotions(h, f, with_i8, with_f32, with_int, divided):
    i = cuda.grid(1)
    if i < h.size:
        with_i8[i] = h[i] + np.int8(1)
        with_f32[i] = h[i] + f[i]
        with_int[i] = h[i] + 1
        divided[i] = h[i] / np.float16(3.0)


# Conversions: np.float16(x) rounds a float32 or an int once; int() truncates; bools compare.
# check: conversions[1, 5](np.array([0.1, 65504.0, 70000.0, -2.5, 1e-8], dtype=np.float32), np.array([1, 2049, 2051, -3, 100000]), np.zeros(5, dtype=np.float16), np.zeros(5, dtype=np.float16), np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.bool_)) -> None ; arg2 == [0.0999755859375, 65504.0, math.inf, -2.5, 0.0] ; arg3 == [1.0, 2048.0, 2052.0, -3.0, math.inf] ; arg4 == [0, 65504, 0, -2, 0] ; arg5 == [True, False, False, False, False]
@cuda.jit
def conversions(f, n, from_f32, from_int, to_int, lt):
    i = cuda.grid(1)
    if i < f.size:
        h = np.float16(f[i])
        from_f32[i] = h
        from_int[i] = np.float16(n[i])
        if i != 2:
            to_int[i] = int(h)
        lt[i] = h < np.float16(n[i]) and h > np.float16(0.0)


# math functions with a float16 loop give float16 (exact inputs: squares and powers of two).
# check: half_math[1, 4](np.array([4.0, 0.25, 1024.0, 9.0], dtype=np.float16), np.array([-1.5, 2.0, -0.0, 3.25], dtype=np.float16), np.zeros(4, dtype=np.float16), np.zeros(4, dtype=np.float16), np.zeros(4, dtype=np.float16)) -> None ; arg2 == [2.0, 0.5, 32.0, 3.0] ; arg3 == [2.0, -2.0, 10.0, 3.169921875] ; arg4 == [1.5, 2.0, 0.0, 3.25]
@cuda.jit
def half_math(x, y, root, lg, mag):
    i = cuda.grid(1)
    if i < x.size:
        root[i] = math.sqrt(x[i])
        lg[i] = math.log2(x[i])
        mag[i] = math.fabs(y[i])


# The cuda.fp16 intrinsics: arithmetic, fma with exact products, min/max, rounding, compares.
# check: intrinsics[1, 4](np.array([1.5, -2.25, 3.0, 0.5], dtype=np.float16), np.array([2.0, 0.5, -4.0, 0.5], dtype=np.float16), np.zeros((4, 10), dtype=np.float16), np.zeros((4, 2), dtype=np.bool_)) -> None ; arg2 == [[3.5, -0.5, 3.0, 0.75, -1.5, 1.5, 4.5, 2.0, 1.5, 2.0], [-1.75, -2.75, -1.125, -4.5, 2.25, 2.25, -3.375, 0.5, -2.25, -2.0], [-1.0, 7.0, -12.0, -0.75, -3.0, 3.0, -9.0, 3.0, -4.0, 3.0], [1.0, 0.0, 0.25, 1.0, -0.5, 0.5, 0.75, 0.5, 0.5, 1.0]] ; arg3 == [[True, False], [True, True], [False, True], [False, True]]
@cuda.jit
def intrinsics(a, b, out, cmp):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = cuda.fp16.hadd(x, y)
        out[i, 1] = cuda.fp16.hsub(x, y)
        out[i, 2] = cuda.fp16.hmul(x, y)
        out[i, 3] = cuda.fp16.hdiv(x, y)
        out[i, 4] = cuda.fp16.hneg(x)
        out[i, 5] = cuda.fp16.habs(x)
        out[i, 6] = cuda.fp16.hfma(x, y, x)
        out[i, 7] = cuda.fp16.hmax(x, y)
        out[i, 8] = cuda.fp16.hmin(x, y)
        out[i, 9] = cuda.fp16.htrunc(cuda.fp16.hceil(x))
        cmp[i, 0] = cuda.fp16.hlt(x, y)
        cmp[i, 1] = cuda.fp16.heq(x, y) or cuda.fp16.hge(x, np.float16(3.0)) or cuda.fp16.hle(x, np.float16(0.5))


@cuda.jit("f2(f2, f2)", device=True)
def half_hypot_sq(x, y):
    return x * x + y * y


# A block sums float16 values through a float16 shared array, after a device function with an
# `f2(f2, f2)` signature.
# check: shared_half_sum[2, 4](np.array([1.0, 2.0, 0.5, 0.25, 3.0, 4.0, 0.0, 1.0], dtype=np.float16), np.array([0.0, 1.0, 0.5, 0.5, 4.0, 0.0, 2.0, 1.0], dtype=np.float16), np.zeros(2, dtype=np.float16)) -> None ; arg2 == [6.8125, 47.0]
@cuda.jit
def shared_half_sum(x, y, out):
    buf = cuda.shared.array(4, dtype=np.float16)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = half_hypot_sq(x[i], y[i])
    cuda.syncthreads()
    if t == 0:
        s = np.float16(0.0)
        for k in range(4):
            s += buf[k]
        out[cuda.blockIdx.x] = s


# The float32-computed intrinsics (through libdevice's float32 functions), on inputs whose
# results are exact but for 10**0.5 and 2**0.5, and ties for hrint (2.5 and 4.5 round to even).
# The simulator's hfloor computes a ceiling, so hfloor has no check from it.
# check: exact_intrinsics[1, 3](np.array([2.0, 4.0, 0.5], dtype=np.float16), np.zeros((3, 6), dtype=np.float16)) -> None ; arg1 == [[100.0, 0.5, 0.5, 2.0, 4.0, 1.0], [10000.0, 0.25, 0.25, 4.0, 16.0, 2.0], [3.162109375, 2.0, 2.0, 1.0, 1.4140625, -1.0]]
@cuda.jit
def exact_intrinsics(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = cuda.fp16.hexp10(x[i])
        out[i, 1] = cuda.fp16.hrsqrt(x[i] * x[i])
        out[i, 2] = cuda.fp16.hrcp(x[i])
        out[i, 3] = cuda.fp16.hrint(x[i] + np.float16(0.5))
        out[i, 4] = cuda.fp16.hexp2(x[i])
        out[i, 5] = cuda.fp16.hlog2(x[i])
