"""The CUDA thread hierarchy: threadIdx/blockIdx/blockDim/gridDim in x, y and z,
cuda.grid(1|2|3), cuda.gridsize(1|2|3), and 1-D, 2-D and 3-D arrays.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import numpy as np
from numba import cuda


# Every index of every thread of a 3-D launch, one row per thread, rows in global linear order.
# check: hierarchy[(2, 1, 2), (2, 2, 1)](np.zeros((16, 12), dtype=np.int32)) -> None ; arg0 == [[0, 0, 0, 0, 0, 0, 2, 2, 1, 2, 1, 2], [1, 0, 0, 0, 0, 0, 2, 2, 1, 2, 1, 2], [0, 1, 0, 0, 0, 0, 2, 2, 1, 2, 1, 2], [1, 1, 0, 0, 0, 0, 2, 2, 1, 2, 1, 2], [0, 0, 0, 1, 0, 0, 2, 2, 1, 2, 1, 2], [1, 0, 0, 1, 0, 0, 2, 2, 1, 2, 1, 2], [0, 1, 0, 1, 0, 0, 2, 2, 1, 2, 1, 2], [1, 1, 0, 1, 0, 0, 2, 2, 1, 2, 1, 2], [0, 0, 0, 0, 0, 1, 2, 2, 1, 2, 1, 2], [1, 0, 0, 0, 0, 1, 2, 2, 1, 2, 1, 2], [0, 1, 0, 0, 0, 1, 2, 2, 1, 2, 1, 2], [1, 1, 0, 0, 0, 1, 2, 2, 1, 2, 1, 2], [0, 0, 0, 1, 0, 1, 2, 2, 1, 2, 1, 2], [1, 0, 0, 1, 0, 1, 2, 2, 1, 2, 1, 2], [0, 1, 0, 1, 0, 1, 2, 2, 1, 2, 1, 2], [1, 1, 0, 1, 0, 1, 2, 2, 1, 2, 1, 2]]
@cuda.jit
def hierarchy(out):
    nthreads = cuda.blockDim.x * cuda.blockDim.y * cuda.blockDim.z
    block = cuda.blockIdx.x + cuda.gridDim.x * (cuda.blockIdx.y + cuda.gridDim.y * cuda.blockIdx.z)
    t = cuda.threadIdx.x + cuda.blockDim.x * (cuda.threadIdx.y + cuda.blockDim.y * cuda.threadIdx.z)
    row = block * nthreads + t
    out[row, 0] = cuda.threadIdx.x
    out[row, 1] = cuda.threadIdx.y
    out[row, 2] = cuda.threadIdx.z
    out[row, 3] = cuda.blockIdx.x
    out[row, 4] = cuda.blockIdx.y
    out[row, 5] = cuda.blockIdx.z
    out[row, 6] = cuda.blockDim.x
    out[row, 7] = cuda.blockDim.y
    out[row, 8] = cuda.blockDim.z
    out[row, 9] = cuda.gridDim.x
    out[row, 10] = cuda.gridDim.y
    out[row, 11] = cuda.gridDim.z


# cuda.grid(1) is blockIdx.x * blockDim.x + threadIdx.x.
# check: global_ids[3, 5](np.zeros(15, dtype=np.int64), np.zeros(15, dtype=np.int64)) -> None ; arg0 == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] ; arg1 == [0, 100, 200, 300, 400, 1, 101, 201, 301, 401, 2, 102, 202, 302, 402]
@cuda.jit
def global_ids(by_grid, by_hand):
    i = cuda.grid(1)
    by_grid[i] = i
    j = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    by_hand[j] = cuda.threadIdx.x * 100 + cuda.blockIdx.x


# cuda.grid(2) over a 2-D array that the grid overhangs.
# check: fill_2d[(2, 2), (4, 4)](np.zeros((5, 7), dtype=np.int64)) -> None ; arg0 == [[0, 1, 2, 3, 4, 5, 6], [100, 101, 102, 103, 104, 105, 106], [200, 201, 202, 203, 204, 205, 206], [300, 301, 302, 303, 304, 305, 306], [400, 401, 402, 403, 404, 405, 406]]
@cuda.jit
def fill_2d(a):
    x, y = cuda.grid(2)
    if x < a.shape[0] and y < a.shape[1]:
        a[x, y] = x * 100 + y


# cuda.grid(3) over a 3-D array.
# check: fill_3d[(1, 2, 3), (4, 2, 2)](np.zeros((3, 4, 5), dtype=np.int32)) -> None ; arg0 == [[[0, 1, 2, 3, 4], [10, 11, 12, 13, 14], [20, 21, 22, 23, 24], [30, 31, 32, 33, 34]], [[100, 101, 102, 103, 104], [110, 111, 112, 113, 114], [120, 121, 122, 123, 124], [130, 131, 132, 133, 134]], [[200, 201, 202, 203, 204], [210, 211, 212, 213, 214], [220, 221, 222, 223, 224], [230, 231, 232, 233, 234]]]
@cuda.jit
def fill_3d(a):
    x, y, z = cuda.grid(3)
    if x < a.shape[0] and y < a.shape[1] and z < a.shape[2]:
        a[x, y, z] = x * 100 + y * 10 + z


# A grid-stride loop in two dimensions with cuda.gridsize(2).
# check: stride_2d[(2, 1), (2, 3)](np.arange(63, dtype=np.float64).reshape(7, 9), np.zeros((7, 9))) -> None ; arg1 == [[1.0, 3.0, 5.0, 7.0, 9.0, 11.0, 13.0, 15.0, 17.0], [19.0, 21.0, 23.0, 25.0, 27.0, 29.0, 31.0, 33.0, 35.0], [37.0, 39.0, 41.0, 43.0, 45.0, 47.0, 49.0, 51.0, 53.0], [55.0, 57.0, 59.0, 61.0, 63.0, 65.0, 67.0, 69.0, 71.0], [73.0, 75.0, 77.0, 79.0, 81.0, 83.0, 85.0, 87.0, 89.0], [91.0, 93.0, 95.0, 97.0, 99.0, 101.0, 103.0, 105.0, 107.0], [109.0, 111.0, 113.0, 115.0, 117.0, 119.0, 121.0, 123.0, 125.0]]
@cuda.jit
def stride_2d(a, out):
    x0, y0 = cuda.grid(2)
    sx, sy = cuda.gridsize(2)
    for x in range(x0, a.shape[0], sx):
        for y in range(y0, a.shape[1], sy):
            out[x, y] = a[x, y] * 2.0 + 1.0


# cuda.gridsize(3) and cuda.gridsize(1) as seen by every thread.
# check: sizes[(2, 1, 1), (2, 2, 2)](np.zeros((16, 4), dtype=np.int64)) -> None ; arg0 == [[4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4], [4, 2, 2, 4]]
@cuda.jit
def sizes(out):
    x, y, z = cuda.grid(3)
    sx, sy, sz = cuda.gridsize(3)
    row = x + sx * (y + sy * z)
    out[row, 0] = sx
    out[row, 1] = sy
    out[row, 2] = sz
    out[row, 3] = cuda.gridsize(1)


# A naive transpose with cuda.grid(2) (no shared memory).
# check: transpose_naive[(2, 2), (4, 3)](np.arange(30, dtype=np.float32).reshape(5, 6), np.zeros((6, 5), dtype=np.float32)) -> None ; arg1 == [[0.0, 6.0, 12.0, 18.0, 24.0], [1.0, 7.0, 13.0, 19.0, 25.0], [2.0, 8.0, 14.0, 20.0, 26.0], [3.0, 9.0, 15.0, 21.0, 27.0], [4.0, 10.0, 16.0, 22.0, 28.0], [5.0, 11.0, 17.0, 23.0, 29.0]]
@cuda.jit
def transpose_naive(a, out):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[j, i] = a[i, j]


# A 5-point stencil with edge guards, one thread per interior element.
# check: stencil_2d[(2, 2), (4, 4)](np.array([[0, 1, 4, 9, 16, 2, 13], [3, 18, 12, 8, 6, 6, 8], [12, 18, 3, 13, 2, 16, 9], [4, 1, 0, 1, 4, 9, 16], [2, 13, 3, 18, 12, 8, 6], [6, 8, 12, 18, 3, 13, 2]], dtype=np.float64), np.zeros((6, 7))) -> None ; arg1 == [[0.0, 1.0, 4.0, 9.0, 16.0, 2.0, 13.0], [3.0, -9.5, -3.75, 2.0, 2.0, 2.0, 8.0], [12.0, -9.5, 7.75, -9.5, 7.75, -9.5, 9.0], [4.0, 7.75, 2.0, 7.75, 2.0, 2.0, 16.0], [2.0, -9.5, 7.75, -9.5, -3.75, 2.0, 6.0], [6.0, 8.0, 12.0, 18.0, 3.0, 13.0, 2.0]]
@cuda.jit
def stencil_2d(a, out):
    i, j = cuda.grid(2)
    n, m = a.shape
    if i < n and j < m:
        if i == 0 or j == 0 or i == n - 1 or j == m - 1:
            out[i, j] = a[i, j]
        else:
            out[i, j] = (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1] - 4.0 * a[i, j]) * 0.25


# Row sums: one thread per row, a loop over the columns.
# check: row_sums[2, 2](np.arange(24, dtype=np.int32).reshape(4, 6), np.zeros(4, dtype=np.int64)) -> None ; arg1 == [15, 51, 87, 123]
@cuda.jit
def row_sums(a, out):
    r = cuda.grid(1)
    if r < a.shape[0]:
        s = 0
        for c in range(a.shape[1]):
            s += a[r, c]
        out[r] = s


# 3-D reduction over the last axis; a.ndim and a.size in a kernel.
# check: last_axis_max[(1, 2), (2, 2)](np.array([[[3, 1, 4], [1, 5, 9], [2, 6, 5]], [[3, 5, 8], [9, 7, 9], [3, 2, 3]]]), np.zeros((2, 3), dtype=np.int64), np.zeros(2, dtype=np.int64)) -> None ; arg1 == [[4, 9, 6], [8, 9, 3]] ; arg2 == [3, 18]
@cuda.jit
def last_axis_max(a, out, info):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        best = a[i, j, 0]
        for k in range(1, a.shape[2]):
            best = max(best, a[i, j, k])
        out[i, j] = best
    if i == 0 and j == 0:
        info[0] = a.ndim
        info[1] = a.size


# threadIdx.y/blockIdx.y without cuda.grid: a column-major walk of a 2-D block.
# check: column_major[(1, 2), (3, 2)](np.zeros((3, 4), dtype=np.int64)) -> None ; arg0 == [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11]]
@cuda.jit
def column_major(out):
    row = cuda.threadIdx.x
    col = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    out[row, col] = col * cuda.blockDim.x + row
