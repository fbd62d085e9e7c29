"""Cooperative groups: `cuda.cg.this_grid()` and `g.sync()`, a barrier across every block of
the grid (twinjit launches such a kernel cooperatively, as numba-cuda does).

Expected values: numba-cuda's simulator runs grid syncs only in one-block grids, so it checks
the one-block launches; the multi-block launches (`# gpu-only`) have expected values derived
by hand (a rotation, a prefix sum) and are run under numba-cuda on the GPU with
`verify_numba_cudasim.py --gpu`.
"""
import numpy as np
from numba import cuda


# Phase 1 writes, the grid meets, phase 2 reads a neighbour's value.
# check: rotate_sum[1, 64](np.arange(40), np.zeros(40, dtype=np.int64), np.zeros(40, dtype=np.int64)) -> None ; arg2 == [2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 42, 46, 50, 54, 58, 62, 66, 70, 74, 78, 82, 86, 90, 94, 98, 102, 106, 110, 114, 118, 122, 126, 130, 134, 138, 142, 146, 150, 154, 78]
# gpu-only: the neighbour of a block's last thread lives in the next block
# check: rotate_sum[5, 8](np.arange(40), np.zeros(40, dtype=np.int64), np.zeros(40, dtype=np.int64)) -> None ; arg2 == [2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 42, 46, 50, 54, 58, 62, 66, 70, 74, 78, 82, 86, 90, 94, 98, 102, 106, 110, 114, 118, 122, 126, 130, 134, 138, 142, 146, 150, 154, 78]
@cuda.jit
def rotate_sum(a, tmp, out):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    n = a.size
    if i < n:
        tmp[i] = a[i] * 2
    g.sync()
    if i < n:
        out[i] = tmp[(i + 1) % n] + tmp[i]


# A Hillis-Steele prefix sum across the whole grid: one grid sync per doubling step, so the
# barrier is reused seven times in one launch (ping-pong rows of `buf`).
# check: grid_scan[1, 32](np.array([1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4]), np.zeros((2, 32), dtype=np.int64)) -> None ; arg0 == [1, 3, 6, 10, 15, 21, 21, 22, 24, 27, 31, 36, 42, 42, 43, 45, 48, 52, 57, 63, 63, 64, 66, 69, 73, 78, 84, 84, 85, 87, 90, 94]
# gpu-only: 128 elements over 4 blocks; the sums cross blocks at every step
# check: grid_scan[4, 32](np.array([1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2]), np.zeros((2, 128), dtype=np.int64)) -> None ; arg0 == [1, 3, 6, 10, 15, 21, 21, 22, 24, 27, 31, 36, 42, 42, 43, 45, 48, 52, 57, 63, 63, 64, 66, 69, 73, 78, 84, 84, 85, 87, 90, 94, 99, 105, 105, 106, 108, 111, 115, 120, 126, 126, 127, 129, 132, 136, 141, 147, 147, 148, 150, 153, 157, 162, 168, 168, 169, 171, 174, 178, 183, 189, 189, 190, 192, 195, 199, 204, 210, 210, 211, 213, 216, 220, 225, 231, 231, 232, 234, 237, 241, 246, 252, 252, 253, 255, 258, 262, 267, 273, 273, 274, 276, 279, 283, 288, 294, 294, 295, 297, 300, 304, 309, 315, 315, 316, 318, 321, 325, 330, 336, 336, 337, 339, 342, 346, 351, 357, 357, 358, 360, 363, 367, 372, 378, 378, 379, 381]
@cuda.jit
def grid_scan(x, buf):
    i = cuda.grid(1)
    n = x.size
    if i < n:
        buf[0, i] = x[i]
    cuda.cg.this_grid().sync()
    src = 0
    step = 1
    while step < n:
        if i < n:
            v = buf[src, i]
            if i >= step:
                v += buf[src, i - step]
            buf[1 - src, i] = v
        cuda.cg.this_grid().sync()
        src = 1 - src
        step *= 2
    if i < n:
        x[i] = buf[src, i]
