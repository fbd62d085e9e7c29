"""Cache-hinted loads and stores (`cuda.ldcg`, `cuda.stcs`, ...), as kernels that stream data
through L2 write them: numba-cuda emits `ld.global.cg.b32` and friends, twinjit the same
instructions (inline PTX); the values are those of plain indexing, negative indices wrapping.

numba-cuda's simulator has no cache hints (`skip_on_cudasim` in its tests), so the simulator
run of this file (verify_numba_cudasim.py) gives the functions plain indexing, with which
the hints agree by definition.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import numpy as np
from numba import cuda
from numba.cuda import ldcg, stcs


# Streaming saxpy: x and y read once (ldcs / ldcg), the result written around L1 (stcg).
# check: saxpy_streaming[2, 4](np.float32(2.0), np.arange(8, dtype=np.float32), np.ones(8, dtype=np.float32), np.zeros(8, dtype=np.float32)) -> None ; arg3 == [1.0, 3.0, 5.0, 7.0, 9.0, 11.0, 13.0, 15.0]
@cuda.jit
def saxpy_streaming(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        cuda.stcg(out, i, a * cuda.ldcs(x, i) + cuda.ldcg(y, i))


# Every load and store operator on a 2-D int16 array, with tuple indices; a negative index
# wraps as in plain indexing.
# check: hinted_copy_2d[1, 1](np.arange(12, dtype=np.int16).reshape(3, 4), np.zeros((3, 4), dtype=np.int16)) -> None ; arg1 == [[11, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 0]]
@cuda.jit
def hinted_copy_2d(src, dst):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            k = (i * src.shape[1] + j) % 4
            if k == 0:
                v = cuda.ldca(src, (i, j))
            elif k == 1:
                v = cuda.ldlu(src, (i, j))
            elif k == 2:
                v = cuda.ldcv(src, (i, j))
            else:
                v = cuda.ldcg(src, (i, j))
            if k % 2 == 0:
                cuda.stwb(dst, (i, j), v)
            else:
                cuda.stwt(dst, (i, j), v)
    # The corners swapped through negative indices.
    first = cuda.ldcg(src, (0, 0))
    last = cuda.ldcs(src, (-1, -1))
    cuda.stcs(dst, (0, 0), last)
    cuda.stcg(dst, (-1, -1), first)


# 8- and 64-bit elements, and a store whose value converts to the element type.
# check: widths[1, 4](np.array([1, -2, 3, -4], dtype=np.int8), np.array([10, 20, 30, 40], dtype=np.uint64), np.zeros(4, dtype=np.int8), np.zeros(4, dtype=np.float64)) -> None ; arg2 == [2, -4, 6, -8] ; arg3 == [11.0, 18.0, 33.0, 36.0]
@cuda.jit
def widths(small, big, small_out, mixed_out):
    i = cuda.threadIdx.x
    s = cuda.ldcg(small, i)
    cuda.stcg(small_out, i, s * 2)
    cuda.stwt(mixed_out, i, cuda.ldca(big, i) + s)


# The hints imported by name, in a grid-stride loop over a 2-D array's rows.
# check: row_sums[2, 2](np.arange(15, dtype=np.float64).reshape(5, 3), np.zeros(5, dtype=np.float64)) -> None ; arg1 == [3.0, 12.0, 21.0, 30.0, 39.0]
@cuda.jit
def row_sums(x, out):
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        s = 0.0
        for j in range(x.shape[1]):
            s += ldcg(x, (i, j))
        stcs(out, i, s)
