"""Narrow and unsigned integers in kernels: uint8 images, int16 samples, uint32 and uint64
bit manipulation, with Numba's promotion rules (arithmetic in 64 bits, stores wrap to the
array's dtype).

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py). The simulator runs the
kernels on NumPy scalars, where a Python int literal is "weak" (uint8 + 10 stays uint8), not
Numba's compiled rule (an int64); so the scalars that mix with narrow elements are passed
as np.int64 arguments, on which both agree.
"""
import numpy as np
from numba import cuda


# Invert a uint8 image: 255 - x computes in int64, the store wraps to uint8.
# check: invert[1, 8](np.array([0, 1, 100, 200, 255], dtype=np.uint8), np.zeros(5, dtype=np.uint8)) -> None ; arg1 == [255, 254, 155, 55, 0]
@cuda.jit
def invert(src, dst):
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = 255 - src[i]


# A saturating brighten: uint8 + int64 is an int64, clipped before the store.
# check: brighten[1, 8](np.array([0, 100, 200, 250], dtype=np.uint8), np.int64(10), np.zeros(4, dtype=np.uint8)) -> None ; arg2 == [10, 110, 210, 255]
@cuda.jit
def brighten(src, k, dst):
    i = cuda.grid(1)
    if i < src.size:
        v = src[i] + k
        dst[i] = min(v, 255)


# Wrapping sum of two uint8 arrays stored into uint8.
# check: wrap_add[1, 8](np.array([100, 200, 255], dtype=np.uint8), np.array([100, 100, 1], dtype=np.uint8), np.zeros(3, dtype=np.uint8)) -> None ; arg2 == [200, 44, 0]
@cuda.jit
def wrap_add(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] + b[i]


# int16 samples scaled and widened to int32.
# check: gain[1, 8](np.array([-32768, -1, 0, 1, 32767], dtype=np.int16), np.int64(3), np.zeros(5, dtype=np.int32)) -> None ; arg2 == [-98304, -3, 0, 3, 98301]
@cuda.jit
def gain(x, g, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * g


# uint32 popcount with shifts and masks.
# check: popcount[1, 8](np.array([0, 1, 4294967295, 2863311530], dtype=np.uint32), np.zeros(4, dtype=np.int64)) -> None ; arg1 == [0, 1, 32, 16]
@cuda.jit
def popcount(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        c = 0
        while v != 0:
            c += v & 1
            v = v >> 1
        out[i] = c


# uint64 multiply-xorshift hash: wraps modulo 2**64.
# check: mix[1, 8](np.array([0, 1, 2, 18446744073709551615], dtype=np.uint64), np.zeros(4, dtype=np.uint64)) -> None ; arg1 == [0, 11400714814019112807, 4354685562918608591, 7046029253353443174]
@cuda.jit
def mix(x, out):
    i = cuda.grid(1)
    if i < x.size:
        h = x[i] * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(31)
        out[i] = h


# Unsigned division and modulo.
# check: udivmod[1, 8](np.array([7, 100, 18446744073709551615], dtype=np.uint64), np.uint64(10), np.zeros(3, dtype=np.uint64), np.zeros(3, dtype=np.uint64)) -> None ; arg2 == [0, 10, 1844674407370955161] ; arg3 == [7, 0, 5]
@cuda.jit
def udivmod(x, d, q, r):
    i = cuda.grid(1)
    if i < x.size:
        q[i] = x[i] // d
        r[i] = x[i] % d
