"""Kernels in the way numba-cuda's own tests and examples write them: threads that return
before a barrier, `x.bit_count()`, `cuda.atomic.compare_and_swap` and `math.modf`.

Threads that return early count as arrived at a barrier (PTX's `exit` releases a barrier that
only exited threads hold up; numba-cuda's simulator drops finished threads from it), so a
block reduction may return for the threads past the end of the data.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import math

import numpy as np
from numba import cuda

TPB = 32


# Threads past the end return before the barrier; the rest sum their block's values.
# check: block_sums[3, 32](np.arange(70, dtype=np.int64), np.zeros(3, dtype=np.int64)) -> None ; arg1 == [496, 1520, 399]
@cuda.jit
def block_sums(x, out):
    tile = cuda.shared.array(TPB, dtype=np.int64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i >= x.size:
        return
    tile[t] = x[i]
    cuda.syncthreads()
    if t == 0:
        s = 0
        n = min(TPB, x.size - cuda.blockIdx.x * TPB)
        for k in range(n):
            s += tile[k]
        out[cuda.blockIdx.x] = s


# syncthreads_count over the threads that did not return: how many of them hold an odd value.
# check: odd_counts[2, 32](np.arange(40, dtype=np.int32), np.zeros(40, dtype=np.int32)) -> None ; arg1 == [16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 4, 4, 4, 4, 4, 4, 4, 4]
@cuda.jit
def odd_counts(x, out):
    i = cuda.grid(1)
    if i >= x.size:
        return
    out[i] = cuda.syncthreads_count(x[i] % 2)


# The number of set bits of each unsigned value (numba-cuda's `bit_count` is popc).
# check: bit_counts[1, 8](np.array([0, 1, 255, 4096, 65535, 2863311530, 4294967295, 7], dtype=np.uint32), np.zeros(8, dtype=np.int32)) -> None ; arg1 == [0, 1, 8, 1, 16, 16, 32, 3]
@cuda.jit
def bit_counts(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i].bit_count()


# check: bit_counts64[1, 4](np.array([0, 18446744073709551615, 1099511627776, 12345678901234], dtype=np.uint64), np.zeros(4, dtype=np.int32)) -> None ; arg1 == [0, 64, 1, 27]
@cuda.jit
def bit_counts64(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i].bit_count()


# compare_and_swap(ary, old, val) works on ary[0]: each thread tries to claim a slot of its own.
# check: claim[1, 6](np.array([-1, -1, 7, -1, 3, -1], dtype=np.int32), np.zeros(6, dtype=np.int32)) -> None ; arg0 == [0, 10, 7, 30, 3, 50] ; arg1 == [-1, -1, 7, -1, 3, -1]
@cuda.jit
def claim(slots, old):
    i = cuda.grid(1)
    if i < slots.size:
        old[i] = cuda.atomic.compare_and_swap(slots[i:], -1, i * 10)


# math.modf: the fraction and the whole part, each with the argument's sign.
# check: split_parts[1, 8](np.array([2.5, -3.75, 0.0, -0.0, np.inf, -np.inf, 1e300, -0.5]), np.zeros(8), np.zeros(8)) -> None ; arg1 == [0.5, -0.75, 0.0, -0.0, 0.0, -0.0, 0.0, -0.5] ; arg2 == [2.0, -3.0, 0.0, -0.0, math.inf, -math.inf, 1e+300, -0.0]
@cuda.jit
def split_parts(x, frac, whole):
    i = cuda.grid(1)
    if i < x.size:
        frac[i], whole[i] = math.modf(x[i])


# check: split_parts32[1, 4](np.array([2.5, -3.75, 1.25, -1e30], dtype=np.float32), np.zeros(4, dtype=np.float32), np.zeros(4, dtype=np.float32)) -> None ; arg1 == [0.5, -0.75, 0.25, -0.0] ; arg2 == [2.0, -3.0, 1.0, -1.0000000150474662e+30]
@cuda.jit
def split_parts32(x, frac, whole):
    i = cuda.grid(1)
    if i < x.size:
        f, w = math.modf(x[i])
        frac[i] = f
        whole[i] = w
