"""Device functions that take compile-time values as arguments: a dtype, a shared or local
array's shape, a builtin such as `cuda.atomic.add`, a math function. Numba compiles such a
function once per combination of those values (literal dispatch); so does twinjit.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import math
from math import floor

import numpy as np
from numba import cuda, float32, int32, int64, uint32, uint64

TILE = 16


@cuda.jit(device=True)
def as_is(x):
    return x


@cuda.jit(device=True)
def to_int64(x):
    return int64(x)


@cuda.jit(device=True)
def binned_update(out, keys, val, dtype, nbins, update, cast, wrap):
    tid = cuda.threadIdx.x
    bins = cuda.shared.array(nbins, dtype)
    if tid < nbins:
        bins[tid] = 0
    cuda.syncthreads()
    slot = cast(keys[tid] % nbins)
    if wrap:
        slot = slot % nbins
    update(bins, slot, val)
    cuda.syncthreads()
    if tid < nbins:
        out[tid] = bins[tid]


# One device function, four atomics, two dtypes, two bin counts.
# check: count_keys[1, 32](np.zeros(8, dtype=np.uint32), np.arange(0, 96, 3, dtype=np.uint32)) -> None ; arg0 == [4, 4, 4, 4, 4, 4, 4, 4]
@cuda.jit
def count_keys(out, keys):
    binned_update(out, keys, 1, uint32, 8, cuda.atomic.add, as_is, False)


# check: max_keys[1, 32](np.zeros(16, dtype=np.int64), np.arange(-9, 23, dtype=np.int64)) -> None ; arg0 == [25, 26, 27, 28, 29, 30, 31, 16, 17, 18, 19, 20, 21, 22, 23, 24]
@cuda.jit
def max_keys(out, keys):
    binned_update(out, keys, cuda.threadIdx.x, int64, 16, cuda.atomic.max, to_int64, True)


# check: sub_keys[1, 32](np.zeros(4, dtype=np.int32), np.arange(0, 160, 5, dtype=np.int32)) -> None ; arg0 == [-16, -16, -16, -16]
@cuda.jit
def sub_keys(out, keys):
    binned_update(out, keys, 2, int32, 4, cuda.atomic.sub, as_is, False)


# check: float_keys[1, 32](np.zeros(8, dtype=np.float32), np.arange(32, dtype=np.int64)) -> None ; arg0 == [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]
@cuda.jit
def float_keys(out, keys):
    binned_update(out, keys, 0.5, np.float32, 8, cuda.atomic.add, as_is, False)


@cuda.jit(device=True)
def tile_total(x, shape, dt):
    t = cuda.local.array(shape, dt)
    for i in range(shape[0]):
        for j in range(shape[1]):
            t[i, j] = x[i * shape[1] + j]
    s = dt(0)
    for i in range(shape[0]):
        for j in range(shape[1]):
            s += t[i, j] * (i + 1)
    return s


# A shape tuple read both as the local array's shape and as loop bounds.
# check: tiles[1, 1](np.arange(12, dtype=np.float64), np.zeros(3)) -> None ; arg1 == [27.0, 38.0, 210.0]
@cuda.jit
def tiles(x, out):
    out[0] = tile_total(x, (2, 3), float32)
    out[1] = tile_total(x, (3, 2), np.float64)
    out[2] = tile_total(x, (4, 3), int64)


@cuda.jit(device=True)
def block_sum(x, out, n=TILE, dt=float32):
    buf = cuda.shared.array(n, dtype=dt)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[tid] = x[i] if i < x.size else 0
    cuda.syncthreads()
    step = n // 2
    while step > 0:
        if tid < step:
            buf[tid] += buf[tid + step]
        cuda.syncthreads()
        step //= 2
    if tid == 0:
        out[cuda.blockIdx.x] = buf[0]


# Defaults as the shape and dtype, or only the dtype.
# check: sums_default[2, 16](np.arange(30, dtype=np.float64), np.zeros(2)) -> None ; arg1 == [120.0, 315.0]
@cuda.jit
def sums_default(x, out):
    block_sum(x, out)


# check: sums_eight[3, 8](np.arange(20, dtype=np.float64), np.zeros(3)) -> None ; arg1 == [28.0, 92.0, 70.0]
@cuda.jit
def sums_eight(x, out):
    block_sum(x, out, 8)


@cuda.jit(device=True)
def staged(x, out, n, dt):
    # The shape and dtype passed on to another specialised device function.
    block_sum(x, out, n, dt)


# check: sums_staged[2, 4](np.arange(8, dtype=np.int32), np.zeros(2, dtype=np.int32)) -> None ; arg1 == [6, 22]
@cuda.jit
def sums_staged(x, out):
    staged(x, out, 4, int32)


@cuda.jit(device=True)
def apply(fn, x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = fn(x[i])


# Math functions passed to a device function.
# check: roots_and_floors[1, 8](np.array([0.25, 2.0, 9.0, 10.5]), np.zeros(4), np.zeros(4)) -> None ; arg1 == [0.5, 1.4142135623730951, 3.0, 3.24037034920393] ; arg2 == [0.0, 2.0, 9.0, 10.0]
@cuda.jit
def roots_and_floors(x, roots, floors):
    apply(math.sqrt, x, roots)
    apply(floor, x, floors)


@cuda.jit(device=True)
def scaled(x, k):
    return x * k


# A number that is not a shape stays an ordinary argument (one compiled function for both
# calls).
# check: scale_twice[1, 4](np.array([1.5, -2.0, 4.0]), np.zeros(3)) -> None ; arg1 == [5.25, -7.0, 14.0]
@cuda.jit
def scale_twice(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = scaled(x[i], 3) + scaled(x[i], 0.5)


@cuda.jit(device=True)
def bin_count(out, keys, shape, wrap):
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    sm = cuda.shared.array(shape, int32)
    sm[tx, ty] = 0
    cuda.syncthreads()
    b = (keys[tx], uint64(ty))
    if wrap:
        # Typed only when taken: uint64 % int64 is a float64, no index.
        b = (b[0] % shape[0], b[1] % shape[1])
    cuda.atomic.add(sm, b, 1)
    cuda.syncthreads()
    out[tx, ty] = sm[tx, ty]


# A bool argument decides a branch: the copy for False never types the other side (Numba
# retries the call with literal types and prunes it).
# check: bins_unwrapped[1, (4, 8)](np.zeros((4, 8), dtype=np.int32), np.array([0, 1, 1, 3])) -> None ; arg0 == [[1, 1, 1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2, 2, 2], [0, 0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1, 1]]
@cuda.jit
def bins_unwrapped(out, keys):
    bin_count(out, keys, (4, 8), False)
