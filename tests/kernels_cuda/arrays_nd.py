"""Kernels over arrays of four and five dimensions: an NCHW batch scaled by a 2-D grid, a
per-channel reduction with a 4-D shared array, a 4-D local array, and atomics with a
four-part tuple index.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import numpy as np
from numba import cuda


# Each thread of a 2-D grid takes one (image, channel) row and one pixel.
# check: scale_nchw[(1, 1), (4, 6)](np.arange(24.0).reshape(2, 2, 2, 3), np.zeros((2, 2, 2, 3)), 0.5) -> None ; arg1 == [[[[0.0, 0.5, 1.0], [1.5, 2.0, 2.5]], [[3.0, 3.5, 4.0], [4.5, 5.0, 5.5]]], [[[6.0, 6.5, 7.0], [7.5, 8.0, 8.5]], [[9.0, 9.5, 10.0], [10.5, 11.0, 11.5]]]]
@cuda.jit
def scale_nchw(x, out, k):
    r, p = cuda.grid(2)
    n, c, h, w = x.shape
    if r < n * c and p < h * w:
        b = r // c
        ch = r % c
        out[b, ch, p // w, p % w] = x[b, ch, p // w, p % w] * k


# One block per channel: its threads stage the channel's values of every image in a 4-D
# shared array, then thread 0 sums them.
# check: channel_sums[2, 8](np.arange(16, dtype=np.int32).reshape(2, 2, 2, 2), np.zeros(2, dtype=np.int32)) -> None ; arg1 == [44, 76]
@cuda.jit
def channel_sums(x, out):
    stage = cuda.shared.array((2, 1, 2, 2), dtype=np.int32)
    ch = cuda.blockIdx.x
    t = cuda.threadIdx.x
    if t < 8:
        b = t // 4
        i = (t // 2) % 2
        j = t % 2
        stage[b, 0, i, j] = x[b, ch, i, j]
    cuda.syncthreads()
    if t == 0:
        s = 0
        for b in range(2):
            for i in range(2):
                for j in range(2):
                    s += stage[b, 0, i, j]
        out[ch] = s


# A 4-D local array per thread, filled and read back in another order.
# check: local_4d[1, 3](np.zeros((3, 2, 2, 2, 2))) -> None ; arg0 == [[[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]], [[[8.0, 9.0], [10.0, 11.0]], [[12.0, 13.0], [14.0, 15.0]]]], [[[[100.0, 101.0], [102.0, 103.0]], [[104.0, 105.0], [106.0, 107.0]]], [[[108.0, 109.0], [110.0, 111.0]], [[112.0, 113.0], [114.0, 115.0]]]], [[[[200.0, 201.0], [202.0, 203.0]], [[204.0, 205.0], [206.0, 207.0]]], [[[208.0, 209.0], [210.0, 211.0]], [[212.0, 213.0], [214.0, 215.0]]]]]
@cuda.jit
def local_4d(out):
    t = cuda.threadIdx.x
    tmp = cuda.local.array((2, 2, 2, 2), dtype=np.float64)
    for a in range(2):
        for b in range(2):
            for c in range(2):
                for d in range(2):
                    tmp[d, c, b, a] = t * 100 + a * 8 + b * 4 + c * 2 + d
    for a in range(2):
        for b in range(2):
            for c in range(2):
                for d in range(2):
                    out[t, a, b, c, d] = tmp[d, c, b, a]


# Counts into a 4-D histogram with atomics and a four-part tuple index.
# check: hist_4d[2, 8](np.array([0, 1, 2, 3, 0, 1, 2, 3, 0, 0, 0, 0, 3, 3, 3, 3]), np.zeros((2, 2, 1, 2), dtype=np.int32)) -> None ; arg1 == [[[[6, 0]], [[0, 2]]], [[[2, 0]], [[0, 6]]]]
@cuda.jit
def hist_4d(codes, counts):
    i = cuda.grid(1)
    if i < codes.size:
        v = codes[i]
        cuda.atomic.add(counts, (v // 2, v % 2 if i % 4 != 0 else v // 2, 0, v % 2 if i < 12 else 1), 1)
