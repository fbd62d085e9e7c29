"""Elementwise kernels: cuda.grid(1), the `i < n` guard, grid-stride loops, float32 that stays
float32, int32/int64/bool arrays, casts and signatures written in the decorator.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py); see its docstring for the
rules that keep the simulator and compiled Numba in agreement.
"""
import math
import numpy as np
from numba import cuda


# check: add_f64[2, 8](np.arange(13, dtype=np.float64), np.full(13, 0.25), np.zeros(13)) -> None ; arg2 == [0.25, 1.25, 2.25, 3.25, 4.25, 5.25, 6.25, 7.25, 8.25, 9.25, 10.25, 11.25, 12.25]
@cuda.jit
def add_f64(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


# float64 arithmetic from int64 inputs: `/` is true division.
# check: int_ratio[1, 16](np.arange(-6, 6), np.zeros(12)) -> None ; arg1 == [-1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75]
@cuda.jit
def int_ratio(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i] / 4 + 0.5


# Every operand float32: the arithmetic stays float32.
# check: saxpy_f32[3, 4](np.float32(2.5), np.arange(10, dtype=np.float32), np.full(10, 0.1, dtype=np.float32), np.zeros(10, dtype=np.float32)) -> None ; arg3 == [0.10000000149011612, 2.5999999046325684, 5.099999904632568, 7.599999904632568, 10.100000381469727, 12.600000381469727, 15.100000381469727, 17.600000381469727, 20.100000381469727, 22.600000381469727]
@cuda.jit
def saxpy_f32(alpha, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = alpha * x[i] + y[i]


# float32 with np.float32 literals: every rounding happens in float32.
# check: scale_f32[2, 8](np.array([0.1, 0.2, 0.3, 1.5, -2.25, 3.0, 7.7, 1e-3, 123.456, -0.5, 9.0, 1.0], dtype=np.float32), np.zeros(12, dtype=np.float32)) -> None ; arg1 == [0.06666667014360428, 0.10000000149011612, 0.13333334028720856, 0.5333333611488342, -0.7166666984558105, 1.0333333015441895, 2.5999999046325684, 0.033666666597127914, 41.185333251953125, -0.13333334028720856, 3.0333335399627686, 0.36666667461395264]
@cuda.jit
def scale_f32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = (x[i] + np.float32(0.1)) / np.float32(3.0)


# check: div_f32[1, 8](np.array([1.0, 2.0, 3.0, 10.0, -7.0, 0.5, 100.0], dtype=np.float32), np.array([3.0, 7.0, 9.0, 3.0, 6.0, 0.3, 11.0], dtype=np.float32), np.zeros(7, dtype=np.float32)) -> None ; arg2 == [0.3333333432674408, 0.2857142984867096, 0.3333333432674408, 3.3333332538604736, -1.1666666269302368, 1.6666666269302368, 9.090909004211426]
@cuda.jit
def div_f32(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] / b[i]


# A grid-stride loop: 2 blocks of 4 threads cover 37 elements.
# check: triple_stride[2, 4](np.arange(37), np.zeros(37, dtype=np.int64)) -> None ; arg1 == [-1, 2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 38, 41, 44, 47, 50, 53, 56, 59, 62, 65, 68, 71, 74, 77, 80, 83, 86, 89, 92, 95, 98, 101, 104, 107]
@cuda.jit
def triple_stride(a, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, a.size, stride):
        out[i] = a[i] * 3 - 1


# A grid-stride while loop over float32.
# check: square_while[3, 2](np.arange(20, dtype=np.float32), np.zeros(20, dtype=np.float32)) -> None ; arg1 == [0.0, 1.0, 4.0, 9.0, 16.0, 25.0, 36.0, 49.0, 64.0, 81.0, 100.0, 121.0, 144.0, 169.0, 196.0, 225.0, 256.0, 289.0, 324.0, 361.0]
@cuda.jit
def square_while(a, out):
    i = cuda.grid(1)
    while i < a.size:
        out[i] = a[i] * a[i]
        i += cuda.gridsize(1)


# int32 arrays: values wrap when stored.
# check: i32_ops[1, 8](np.array([1, -2, 3, 2147483647, -2147483648, 100, -100, 7], dtype=np.int32), np.zeros(8, dtype=np.int32), np.zeros(8, dtype=np.int32)) -> None ; arg1 == [2, -1, 4, -2147483648, -2147483647, 101, -99, 8] ; arg2 == [3, -6, 9, 2147483645, -2147483648, 300, -300, 21]
@cuda.jit
def i32_ops(a, plus, times):
    i = cuda.grid(1)
    if i < a.size:
        plus[i] = a[i] + 1
        times[i] = a[i] * 3


# Floor division and modulo of negatives follow Python, on int64 and on float64.
# check: floordiv_mod[2, 8](np.array([7, -7, 7, -7, 0, 13, -13, 1, -1, 100, -100, 5]), np.array([2, 2, -2, -2, 3, 5, 5, -3, 3, 7, 7, -5]), np.zeros(12, dtype=np.int64), np.zeros(12, dtype=np.int64)) -> None ; arg2 == [3, -4, -4, 3, 0, 2, -3, -1, -1, 14, -15, -1] ; arg3 == [1, 1, -1, -1, 0, 3, 2, -2, 2, 2, 5, 0]
# check: floordiv_mod[1, 8](np.array([7.5, -7.5, 7.5, -7.5, 0.5, 10.0]), np.array([2.0, 2.0, -2.0, -2.0, 0.2, 3.0]), np.zeros(6), np.zeros(6)) -> None ; arg2 == [3.0, -4.0, -4.0, 3.0, 2.0, 3.0] ; arg3 == [1.5, 0.5, -0.5, -1.5, 0.09999999999999998, 1.0]
@cuda.jit
def floordiv_mod(a, b, q, r):
    i = cuda.grid(1)
    if i < a.size:
        q[i] = a[i] // b[i]
        r[i] = a[i] % b[i]


# Bool arrays in and out.
# check: flags[1, 16](np.array([-3.0, 0.0, 2.5, 7.0, -0.5, 1.0, 10.0, -8.0, 4.0, 6.0]), np.array([True, False, True, True, False, False, True, True, False, True]), np.zeros(10, dtype=np.bool_), np.zeros(10, dtype=np.bool_)) -> None ; arg2 == [False, False, True, True, False, True, True, False, True, True] ; arg3 == [False, False, True, True, False, False, True, False, False, True]
@cuda.jit
def flags(x, mask, positive, both):
    i = cuda.grid(1)
    if i < x.size:
        positive[i] = x[i] > 0
        both[i] = x[i] > 0 and mask[i]


# Casts: float -> int truncates, int -> float32, float64 -> float32 rounds.
# check: casts[1, 8](np.array([2.7, -2.7, 0.5, -0.5, 1e3, 3.999, -1.25]), np.zeros(7, dtype=np.int64), np.zeros(7, dtype=np.int32), np.zeros(7, dtype=np.float32)) -> None ; arg1 == [2, -2, 0, 0, 1000, 3, -1] ; arg2 == [27, -27, 5, -5, 10000, 39, -12] ; arg3 == [0.8999999761581421, -0.8999999761581421, 0.1666666716337204, -0.1666666716337204, 333.3333435058594, 1.3329999446868896, -0.4166666567325592]
@cuda.jit
def casts(x, as_int, as_i32, as_f32):
    i = cuda.grid(1)
    if i < x.size:
        as_int[i] = int(x[i])
        as_i32[i] = np.int32(x[i] * 10)
        as_f32[i] = np.float32(x[i] / 3)


# An int index counted from the end (negative indices wrap).
# check: reverse_copy[2, 4](np.arange(7), np.zeros(7, dtype=np.int64)) -> None ; arg1 == [6, 5, 4, 3, 2, 1, 0]
@cuda.jit
def reverse_copy(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[-1 - i] = a[i]


# A signature written in the decorator.
# check: sig_scale[2, 4](np.arange(6, dtype=np.float32), np.zeros(6, dtype=np.float32)) -> None ; arg1 == [-1.0, -0.5, 0.0, 0.5, 1.0, 1.5]
@cuda.jit("void(float32[:], float32[:])")
def sig_scale(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] * np.float32(0.5) - np.float32(1.0)


# check: sig_fill[1, 8](np.zeros(8, dtype=np.int32), np.int32(-3)) -> None ; arg0 == [0, -3, -6, -9, -12, -15, -18, -21]
@cuda.jit("void(int32[:], int32)")
def sig_fill(out, v):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = v * i


# Branches inside a kernel: clamp and classify.
# check: classify[2, 4](np.array([-5.0, -0.5, 0.0, 0.5, 2.0, 9.0, 100.0]), np.zeros(7, dtype=np.int64)) -> None ; arg1 == [-2, -1, 0, 1, 1, 2, 2]
@cuda.jit
def classify(x, out):
    i = cuda.grid(1)
    if i >= x.size:
        return
    v = x[i]
    if v < -1.0:
        out[i] = -2
    elif v < 0.0:
        out[i] = -1
    elif v == 0.0:
        out[i] = 0
    elif v <= 2.0:
        out[i] = 1
    else:
        out[i] = 2


# A scalar argument and an inner loop per element.
# check: powers[1, 8](np.arange(6), 4, np.zeros(6, dtype=np.int64)) -> None ; arg2 == [1, 16, 81, 256, 625, 1296]
@cuda.jit
def powers(a, n, out):
    i = cuda.grid(1)
    if i < a.size:
        acc = 1
        for _ in range(n):
            acc *= a[i] + 1
        out[i] = acc
