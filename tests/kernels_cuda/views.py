"""Array views inside kernels and device functions: basic slices of kernel arguments
(`a[1:-1]`, `a[::2]`, negative steps, `x[i, :]`, `x[:, j]`, `a[i]` of a 2-D or 3-D array,
`x.T`, 2-D sub-blocks), views of cuda.shared and cuda.local arrays, views passed to device
functions that loop over them (`len(v)`, `v.shape[0]`, indexing, `for e in v`), `for row in a`,
and element stores through views (which write the underlying array).

No kernel allocates, and none assigns a whole slice (`v[:] = x`): only element stores.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import numpy as np
from numba import cuda, float64, int64

W = 8
R = 4


@cuda.jit(device=True)
def total(v):
    s = 0
    for k in range(len(v)):
        s += v[k]
    return s


@cuda.jit(device=True)
def dot(u, v):
    s = 0.0
    for k in range(u.shape[0]):
        s += u[k] * v[k]
    return s


@cuda.jit(device=True)
def trace(m):
    s = 0
    for k in range(min(m.shape[0], m.shape[1])):
        s += m[k, k]
    return s


@cuda.jit(device=True)
def sum2d(m):
    s = 0
    for r in range(m.shape[0]):
        for c in range(m.shape[1]):
            s += m[r, c]
    return s


@cuda.jit(device=True)
def fill_ramp(v, start):
    for k in range(len(v)):
        v[k] = start + k


# --- realistic kernels ----------------------------------------------------------------------


# A 1-2-1 smoothing stencil that reads its window as the view a[i-1:i+2]; the ends are copied.
# check: smooth3[2, 4](np.array([0.0, 4.0, 8.0, 2.0, 6.0, 10.0, 1.0, 3.0]), np.zeros(8)) -> None ; arg1 == [0.0, 4.0, 5.5, 4.5, 6.0, 6.75, 3.75, 3.0]
@cuda.jit
def smooth3(a, out):
    i = cuda.grid(1)
    n = a.shape[0]
    if i == 0 or i == n - 1:
        out[i] = a[i]
    elif i < n:
        w = a[i - 1:i + 2]
        out[i] = 0.25 * w[0] + 0.5 * w[1] + 0.25 * w[2]


# A moving sum of width 3: a device function sums the window view.
# check: moving_sum3[1, 8](np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.int32), np.zeros(6, dtype=np.int64)) -> None ; arg1 == [8, 6, 10, 15, 16, 17]
@cuda.jit
def moving_sum3(a, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = total(a[i:i + 3])


# Inclusive prefix sums, each element the sum of the view a[:i + 1] (one thread per element).
# check: prefix_sums[2, 5](np.arange(1, 11, dtype=np.int64), np.zeros(10, dtype=np.int64)) -> None ; arg1 == [1, 3, 6, 10, 15, 21, 28, 36, 45, 55]
# check: prefix_sums[1, 4](np.array([0.5, 0.25, -1.0, 2.0]), np.zeros(4)) -> None ; arg1 == [0.5, 0.75, -0.25, 1.75]
@cuda.jit
def prefix_sums(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = total(a[:i + 1])


# Per-row normalisation in place, one thread per row, through the row view m[i, :]; a row
# that sums to zero is left alone.
# check: normalise_rows[1, 4](np.array([[1.0, 3.0, 4.0, 0.0], [0.0, 0.0, 0.0, 0.0], [2.0, 2.0, 2.0, 2.0], [-1.0, 2.0, 0.5, 0.5]]), np.zeros(4)) -> None ; arg0 == [[0.125, 0.375, 0.5, 0.0], [0.0, 0.0, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25], [-0.5, 1.0, 0.25, 0.25]] ; arg1 == [8.0, 0.0, 8.0, 2.0]
@cuda.jit
def normalise_rows(m, sums):
    r = cuda.grid(1)
    if r < m.shape[0]:
        row = m[r, :]
        s = total(row)
        sums[r] = s
        if s != 0.0:
            for j in range(row.shape[0]):
                row[j] = row[j] / s


# Column maxima through the column view x[:, j] (a strided view of a C-order array).
# check: column_max[2, 3](np.array([[3, 9, -2, 7, 0], [8, 1, -5, 7, 4], [5, 6, -1, 2, 4]], dtype=np.int32), np.zeros(5, dtype=np.int32)) -> None ; arg1 == [8, 9, -1, 7, 4]
@cuda.jit
def column_max(x, out):
    j = cuda.grid(1)
    if j < x.shape[1]:
        col = x[:, j]
        best = col[0]
        for k in range(1, len(col)):
            best = max(best, col[k])
        out[j] = best


# Matrix-vector product: a[i] of a 2-D array is its row, dotted with x by a device function.
# check: matvec_rows[1, 4](np.arange(12, dtype=np.float64).reshape(4, 3), np.array([1.0, -2.0, 0.5]), np.zeros(4)) -> None ; arg2 == [-1.0, -2.5, -4.0, -5.5]
@cuda.jit
def matvec_rows(m, x, out):
    i = cuda.grid(1)
    if i < m.shape[0]:
        out[i] = dot(m[i], x)


# Row sums of an 8-wide tile in shared memory: each row of threads tree-reduces its own
# row through the view tile[ty, :], writing through the view between barriers.
# check: tile_row_sums[(1, 2), (8, 4)](np.arange(64, dtype=np.float64).reshape(8, 8), np.zeros(8)) -> None ; arg1 == [28.0, 92.0, 156.0, 220.0, 284.0, 348.0, 412.0, 476.0]
@cuda.jit
def tile_row_sums(a, out):
    tile = cuda.shared.array((R, W), dtype=float64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    row = cuda.blockIdx.y * R + ty
    tile[ty, tx] = a[row, tx]
    cuda.syncthreads()
    r = tile[ty, :]
    s = W // 2
    while s > 0:
        if tx < s:
            r[tx] += r[tx + s]
        cuda.syncthreads()
        s //= 2
    if tx == 0:
        out[row] = r[0]


# 2x2 sum pooling: a device function sums the 2-D sub-block view x[2i:2i+2, 2j:2j+2].
# check: sum_pool[(1, 1), (2, 3)](np.arange(24, dtype=np.int64).reshape(4, 6), np.zeros((2, 3), dtype=np.int64)) -> None ; arg1 == [[14, 22, 30], [62, 70, 78]]
@cuda.jit
def sum_pool(x, out):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = sum2d(x[2 * i:2 * i + 2, 2 * j:2 * j + 2])


# Digits of each value into a local buffer; buf[:n] is summed by a device function and its
# reverse view buf[:n][::-1] is iterated with `for d in ...` to rebuild the value.
# check: digit_views[1, 5](np.array([0, 7, 42, 9051, 123456], dtype=np.int64), np.zeros((5, 3), dtype=np.int64)) -> None ; arg1 == [[1, 0, 0], [1, 7, 7], [2, 6, 42], [4, 15, 9051], [6, 21, 123456]]
@cuda.jit
def digit_views(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        buf = cuda.local.array(8, dtype=int64)
        v = a[i]
        n = 0
        while True:
            buf[n] = v % 10
            v //= 10
            n += 1
            if v == 0:
                break
        out[i, 0] = n
        out[i, 1] = total(buf[:n])
        back = 0
        for d in buf[:n][::-1]:
            back = back * 10 + d
        out[i, 2] = back


# Each thread fills its row of the output through the view out[i, :] (device function stores).
# check: fill_rows[1, 3](np.zeros((3, 4), dtype=np.int32)) -> None ; arg0 == [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]
@cuda.jit
def fill_rows(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        fill_ramp(out[i, :], i * 10)


# Scale the even columns of each row in place through the strided view x[i, ::2] (float32).
# check: scale_even_cols[1, 3](np.arange(15, dtype=np.float32).reshape(3, 5), np.array([2.5], dtype=np.float32)) -> None ; arg0 == [[0.0, 1.0, 5.0, 3.0, 10.0], [12.5, 6.0, 17.5, 8.0, 22.5], [25.0, 11.0, 30.0, 13.0, 35.0]]
@cuda.jit
def scale_even_cols(x, s):
    i = cuda.grid(1)
    if i < x.shape[0]:
        v = x[i, ::2]
        for k in range(v.shape[0]):
            v[k] = v[k] * s[0]


# Traces of the 2-D views a[i] and a[:, :, i] of a 3-D array.
# check: traces_3d[1, 3](np.arange(27, dtype=np.int64).reshape(3, 3, 3), np.zeros((3, 2), dtype=np.int64)) -> None ; arg1 == [[12, 36], [39, 39], [66, 42]]
@cuda.jit
def traces_3d(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i, 0] = trace(a[i])
        out[i, 1] = trace(a[:, :, i])


# A local 3x3 matrix: row sums through m[r, :], column sums through m[:, r], for each thread.
# check: local_matrix_views[1, 2](np.array([1.0, -0.5]), np.zeros((2, 6))) -> None ; arg1 == [[3.0, 12.0, 21.0, 9.0, 12.0, 15.0], [-1.5, -6.0, -10.5, -4.5, -6.0, -7.5]]
@cuda.jit
def local_matrix_views(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        m = cuda.local.array((3, 3), dtype=float64)
        for r in range(3):
            for c in range(3):
                m[r, c] = a[i] * (r * 3 + c)
        for r in range(3):
            out[i, r] = total(m[r, :])
            out[i, 3 + r] = total(m[:, r])


# --- probes per construct -------------------------------------------------------------------


# A negative-step view: out is a reversed.
# check: reverse_view[2, 4](np.arange(7, dtype=np.int32), np.zeros(7, dtype=np.int32)) -> None ; arg1 == [6, 5, 4, 3, 2, 1, 0]
@cuda.jit
def reverse_view(a, out):
    i = cuda.grid(1)
    r = a[::-1]
    if i < r.shape[0]:
        out[i] = r[i]


# Even and odd views a[::2] and a[1::2] of an odd-length array, summed pairwise.
# check: pair_sums[1, 4](np.array([1, 10, 2, 20, 3, 30, 4]), np.zeros(3, dtype=np.int64)) -> None ; arg1 == [11, 22, 33]
@cuda.jit
def pair_sums(a, out):
    i = cuda.grid(1)
    even = a[::2]
    odd = a[1::2]
    if i < len(odd):
        out[i] = even[i] + odd[i]


# x.T in a kernel: a transposed copy through the view.
# check: transpose_view[(2, 1), (2, 3)](np.arange(12, dtype=np.float64).reshape(3, 4), np.zeros((4, 3))) -> None ; arg1 == [[0.0, 4.0, 8.0], [1.0, 5.0, 9.0], [2.0, 6.0, 10.0], [3.0, 7.0, 11.0]]
@cuda.jit
def transpose_view(x, out):
    t = x.T
    i, j = cuda.grid(2)
    if i < t.shape[0] and j < t.shape[1]:
        out[i, j] = t[i, j]


# `for row in a` over a 2-D array and `for v in row` over each row, in one thread.
# check: iterate_rows[1, 2](np.arange(12, dtype=np.int32).reshape(4, 3), np.zeros(4, dtype=np.int64)) -> None ; arg1 == [3, 12, 21, 30]
@cuda.jit
def iterate_rows(a, out):
    if cuda.grid(1) == 0:
        r = 0
        for row in a:
            s = 0
            for v in row:
                s += v
            out[r] = s
            r += 1


# Element stores through views: out[1:-1] and out[::-1] write the underlying arrays.
# check: store_through_views[1, 4](np.array([1.5, 2.5, 3.5, 4.5]), np.zeros(6), np.zeros(4)) -> None ; arg1 == [0.0, 3.0, 5.0, 7.0, 9.0, 0.0] ; arg2 == [4.5, 3.5, 2.5, 1.5]
@cuda.jit
def store_through_views(a, out, rev):
    i = cuda.grid(1)
    inner = out[1:-1]
    if i < inner.shape[0]:
        inner[i] = a[i] * 2.0
    back = rev[::-1]
    if i < back.shape[0]:
        back[i] = a[i]


# A view of a view of a view: a[1:][::2][1:].
# check: chained_views[1, 4](np.arange(10, 20, dtype=np.int64), np.full(4, -1, dtype=np.int64)) -> None ; arg1 == [13, 15, 17, 19]
@cuda.jit
def chained_views(a, out):
    i = cuda.grid(1)
    v = a[1:][::2][1:]
    if i < len(v):
        out[i] = v[i]


# Lengths and elements of constant-bound slices: clamping, empty and negative-step slices.
# check: slice_shapes[1, 1](np.arange(10, dtype=np.int64), np.arange(12, dtype=np.int64).reshape(3, 4), np.zeros(13, dtype=np.int64)) -> None ; arg2 == [3, 4, 0, 3, 10, 3, 6, 7, 2, 2, 3, 11, 10]
@cuda.jit
def slice_shapes(a, x, out):
    out[0] = len(a[2:5])
    out[1] = a[::3].shape[0]
    out[2] = a[5:2].shape[0]
    out[3] = len(a[-3:])
    out[4] = len(a[:100])
    out[5] = a[7:1:-2].shape[0]
    out[6] = a[::-3][1]
    out[7] = a[-1:-4:-1][2]
    out[8] = x[1:3, ::2].shape[0]
    out[9] = x[1:3, ::2].shape[1]
    out[10] = x[:, 1:].shape[1]
    out[11] = x[::-1, ::-1][0, 0]
    out[12] = x[1:3, ::2][1, 1]


# Slices with run-time bounds and steps (ints from the launch), including negative ones.
# check: runtime_slice[1, 8](np.arange(10, dtype=np.float64), 2, 9, 2, np.full(8, -1.0)) -> None ; arg4 == [2.0, 4.0, 6.0, 8.0, -1.0, -1.0, -1.0, 4.0]
# check: runtime_slice[1, 8](np.arange(10, dtype=np.float64), 8, 1, -3, np.full(8, -1.0)) -> None ; arg4 == [8.0, 5.0, 2.0, -1.0, -1.0, -1.0, -1.0, 3.0]
# check: runtime_slice[1, 8](np.arange(10, dtype=np.float64), -4, 20, 1, np.full(8, -1.0)) -> None ; arg4 == [6.0, 7.0, 8.0, 9.0, -1.0, -1.0, -1.0, 4.0]
# check: runtime_slice[1, 8](np.arange(10, dtype=np.float64), 6, 3, 1, np.full(8, -1.0)) -> None ; arg4 == [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, 0.0]
@cuda.jit
def runtime_slice(a, lo, hi, step, out):
    i = cuda.grid(1)
    v = a[lo:hi:step]
    if i == 0:
        out[7] = len(v)
    if i < len(v) and i < 7:
        out[i] = v[i]


# Views of a bool array: flags[1:] and flags[::-2].
# check: count_flags[1, 1](np.array([True, False, True, True, False, True, False]), np.zeros(2, dtype=np.int64)) -> None ; arg1 == [3, 2]
@cuda.jit
def count_flags(flags, out):
    c = 0
    f = flags[1:]
    for k in range(len(f)):
        if f[k]:
            c += 1
    out[0] = c
    c = 0
    g = flags[::-2]
    for k in range(g.shape[0]):
        if g[k]:
            c += 1
    out[1] = c


# A column view tile[:, tx] of a 2-D shared array: a 4x4 transpose.
# check: shared_column_view[1, (4, 4)](np.arange(16, dtype=np.int32).reshape(4, 4), np.zeros((4, 4), dtype=np.int32)) -> None ; arg1 == [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]]
@cuda.jit
def shared_column_view(a, out):
    tile = cuda.shared.array((4, 4), dtype=np.int32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tile[ty, tx] = a[ty, tx]
    cuda.syncthreads()
    col = tile[:, tx]
    out[tx, ty] = col[ty]


# A 2-D sub-block view x[1:3, 1:4] and flips x[::-1, :] / x[:, ::-1], one thread per element.
# check: block_and_flips[(1, 1), (3, 4)](np.arange(20, dtype=np.int32).reshape(4, 5), np.zeros((2, 3), dtype=np.int32), np.zeros((4, 5), dtype=np.int32), np.zeros((4, 5), dtype=np.int32)) -> None ; arg1 == [[6, 7, 8], [11, 12, 13]] ; arg2 == [[15, 16, 17, 18, 19], [10, 11, 12, 13, 14], [5, 6, 7, 8, 9], [0, 1, 2, 3, 4]] ; arg3 == [[4, 3, 2, 1, 0], [9, 8, 7, 6, 5], [14, 13, 12, 11, 10], [19, 18, 17, 16, 15]]
@cuda.jit
def block_and_flips(x, blk_out, rows_flipped, cols_flipped):
    i, j = cuda.grid(2)
    blk = x[1:3, 1:4]
    if i < blk.shape[0] and j < blk.shape[1]:
        blk_out[i, j] = blk[i, j]
    for r in range(i, x.shape[0], 3):
        for c in range(j, x.shape[1], 4):
            rows_flipped[r, c] = x[::-1, :][r, c]
            cols_flipped[r, c] = x[:, ::-1][r, c]


# The 1-D view of a local array prefix buf[:n] passed to a device function that stores
# through it (fill_ramp), then read back whole.
# check: local_prefix_fill[1, 3](np.array([1, 3, 5], dtype=np.int64), np.zeros((3, 5), dtype=np.int64)) -> None ; arg1 == [[0, -1, -1, -1, -1], [100, 101, 102, -1, -1], [200, 201, 202, 203, 204]]
@cuda.jit
def local_prefix_fill(ns, out):
    i = cuda.grid(1)
    if i < ns.shape[0]:
        buf = cuda.local.array(5, dtype=int64)
        for k in range(5):
            buf[k] = -1
        fill_ramp(buf[:ns[i]], 100 * i)
        for k in range(5):
            out[i, k] = buf[k]


# Views that read the bytes as another dtype, in a kernel: the real and imaginary parts of a
# complex array, and the bit patterns of floats.
# check: parts_and_bits[1, 4](np.array([1 + 2j, 3 - 4j, -1j]), np.array([1.0, -2.0, 0.5], dtype=np.float32), np.zeros(3), np.zeros(3, dtype=np.uint32)) -> None ; arg2 == [12.0, 26.0, -1.0] ; arg3 == [127, 384, 126]
@cuda.jit
def parts_and_bits(z, f, out, bits):
    i = cuda.grid(1)
    re = z.real
    im = z.imag
    u = f.view(np.uint32)
    if i < out.size:
        out[i] = re[i] * 10.0 + im[i]
        bits[i] = u[i] >> 23
