"""NumPy arrays as values: basic slicing and views (a[1:-1], a[::-1], a[i] on 2-D, a[:, j],
a[..., k], None), a.T / transpose / reshape / ravel / flatten, slice assignment, iteration
over rows, view errors."""
import numpy as np
from numba import njit


# ---------------------------------------------------------------- realistic kernels


# check: jacobi_step(np.array([0.0, 1.0, 2.0, 4.0, 8.0])) -> [0.0, 1.0, 2.5, 5.0, 8.0]
# check: jacobi_step(np.array([1.0, 2.0])) -> [1.0, 2.0]
@njit
def jacobi_step(u):
    """One Jacobi sweep of the 1-D Laplace equation, boundaries kept."""
    new = u.copy()
    inner = new[1:-1]
    left = u[:-2]
    right = u[2:]
    for i in range(inner.shape[0]):
        inner[i] = 0.5 * (left[i] + right[i])
    return new


# check: jacobi_2d(np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 4.0, 8.0, 0.0], [0.0, 0.0, 0.0, 0.0]])) -> [[0.0, 0.0, 0.0, 0.0], [0.0, 2.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
@njit
def jacobi_2d(u):
    """Five-point average of the interior of a grid."""
    out = u.copy()
    c = out[1:-1, 1:-1]
    up = u[:-2, 1:-1]
    down = u[2:, 1:-1]
    left = u[1:-1, :-2]
    right = u[1:-1, 2:]
    for i in range(c.shape[0]):
        for j in range(c.shape[1]):
            c[i, j] = 0.25 * (up[i, j] + down[i, j] + left[i, j] + right[i, j])
    return out


# check: normalize_rows(np.array([[1.0, 3.0], [2.0, 2.0], [0.0, 5.0]])) -> None ; arg0 == [[0.25, 0.75], [0.5, 0.5], [0.0, 1.0]]
# check: normalize_rows(np.array([[0.0, 0.0]])) -> None ; arg0 == [[0.0, 0.0]]
@njit
def normalize_rows(a):
    """Scale each row in place to sum 1 (rows summing to 0 are left alone)."""
    for row in a:
        s = 0.0
        for j in range(row.shape[0]):
            s += row[j]
        if s != 0.0:
            for j in range(row.shape[0]):
                row[j] /= s


# check: row_sums(np.array([[1, 2, 3], [4, 5, 6]])) -> [6, 15]
# check: row_sums(np.zeros((0, 3))) -> []
@njit
def row_sums(a):
    """Sum of each row, iterating with `for row in a`."""
    out = np.zeros(a.shape[0], dtype=a.dtype)
    k = 0
    for row in a:
        for v in row:
            out[k] += v
        k += 1
    return out


# check: reverse_copy(np.array([1, 2, 3, 4])) -> [4, 3, 2, 1]
# check: reverse_copy(np.zeros(0)) -> []
@njit
def reverse_copy(a):
    """A reversed copy through a negative-step view."""
    return a[::-1].copy()


# check: even_odd_split(np.arange(7)) -> ([0, 2, 4, 6], [1, 3, 5])
# check: even_odd_split(np.array([5.5])) -> ([5.5], [])
@njit
def even_odd_split(a):
    """Elements at even and odd positions."""
    return a[::2], a[1::2]


# check: diff(np.array([1.0, 4.0, 9.0, 16.0])) -> [3.0, 5.0, 7.0]
# check: diff(np.array([1.0])) -> []
@njit
def diff(x):
    """Forward differences x[1:] - x[:-1] into a new array."""
    hi = x[1:]
    lo = x[:-1]
    out = np.empty(hi.shape[0])
    for i in range(hi.shape[0]):
        out[i] = hi[i] - lo[i]
    return out


# check: trace_of_block(np.arange(16).reshape(4, 4), 1, 3) -> 15
@njit
def trace_of_block(a, lo, hi):
    """Trace of the square block a[lo:hi, lo:hi]."""
    b = a[lo:hi, lo:hi]
    t = 0
    for i in range(b.shape[0]):
        t += b[i, i]
    return t


# check: column_means(np.array([[1.0, 2.0], [3.0, 6.0]])) -> [2.0, 4.0]
@njit
def column_means(a):
    """Mean of each column via the a[:, j] view."""
    m = a.shape[1]
    out = np.empty(m)
    for j in range(m):
        col = a[:, j]
        s = 0.0
        for v in col:
            s += v
        out[j] = s / col.shape[0]
    return out


# check: shift_left(np.array([1, 2, 3, 4])) -> None ; arg0 == [2, 3, 4, 1]
# check: shift_left(np.array([7])) -> None ; arg0 == [7]
@njit
def shift_left(a):
    """Rotate left by one in place using a slice assignment of a copy."""
    first = a[0]
    a[:-1] = a[1:].copy()
    a[-1] = first


# check: pad_copy(np.array([1.0, 2.0, 3.0]), 2) -> [0.0, 0.0, 1.0, 2.0, 3.0, 0.0, 0.0]
# check: pad_copy(np.zeros(0), 1) -> [0.0, 0.0]
@njit
def pad_copy(x, w):
    """x with w zeros on each side."""
    out = np.zeros(x.shape[0] + 2 * w)
    out[w:w + x.shape[0]] = x
    return out


# check: block_fill(3, 4) -> [[1, 1, 0, 0], [0, 0, 2, 2], [0, 0, 2, 2]]
@njit
def block_fill(n, m):
    """Fill quadrants through 2-D slice assignment."""
    a = np.zeros((n, m), dtype=np.int64)
    a[: n // 2, : m // 2] = 1
    a[n // 2 :, m // 2 :] = 2
    return a


# check: flatten_sum(np.array([[1, 2], [3, 4]])) -> 10
@njit
def flatten_sum(a):
    """Sum through a.ravel()."""
    s = 0
    for v in a.ravel():
        s += v
    return s


# ---------------------------------------------------------------- 1-D slicing


# check: basic_slices(np.arange(6)) -> ([1, 2, 3, 4], [2, 3, 4, 5], [0, 1, 2], [0, 1, 2, 3, 4, 5], [4, 5])
# check: basic_slices(np.arange(2)) -> ([], [], [0, 1], [0, 1], [0, 1])
# check: basic_slices(np.zeros(0, dtype=np.int64)) -> ([], [], [], [], [])
@njit
def basic_slices(a):
    return a[1:-1], a[2:], a[:3], a[:], a[-2:]


# check: step_slices(np.arange(7)) -> ([0, 2, 4, 6], [1, 4], [6, 5, 4, 3, 2, 1, 0], [6, 4, 2, 0], [5, 3])
# check: step_slices(np.arange(1)) -> ([0], [], [0], [0], [])
@njit
def step_slices(a):
    return a[::2], a[1::3], a[::-1], a[::-2], a[5:1:-2]


# check: neg_step_clipping(np.arange(5)) -> ([4, 3, 2, 1, 0], [4, 3, 2, 1, 0], [4, 2, 0], [], [4, 3, 2, 1], [])
@njit
def neg_step_clipping(a):
    return a[10::-1], a[:-10:-1], a[-1:-6:-2], a[2:2:-1], a[:0:-1], a[-10::-1]


# check: runtime_slice(np.arange(10), 2, 8, 3) -> [2, 5]
# check: runtime_slice(np.arange(10), 8, 2, -3) -> [8, 5]
# check: runtime_slice(np.arange(10), -3, 100, 1) -> [7, 8, 9]
# check: runtime_slice(np.arange(10), 100, -100, -4) -> [9, 5, 1]
# check: runtime_slice(np.arange(10), 0, 10, 0) raises ValueError: slice step cannot be zero
@njit
def runtime_slice(a, start, stop, step):
    return a[start:stop:step]


# check: slice_stop_only(np.arange(5), 3) -> [0, 1, 2]
# check: slice_stop_only(np.arange(5), -1) -> [0, 1, 2, 3]
# check: slice_stop_only(np.arange(5), 9) -> [0, 1, 2, 3, 4]
@njit
def slice_stop_only(a, n):
    return a[:n]


# check: view_shares_memory(np.zeros(5)) -> [1.0, 0.0, 3.0] ; arg0 == [0.0, 1.0, 0.0, 3.0, 9.0]
@njit
def view_shares_memory(a):
    v = a[1:4]
    v[0] = 1.0
    v[-1] = 3.0
    w = a[::-1]
    w[0] = 9.0
    return v


# check: view_of_view(np.arange(10)) -> ([3, 5, 7], 3)
@njit
def view_of_view(a):
    b = a[1:]
    c = b[::2]
    d = c[1:-1]
    return d, d.shape[0]


# check: slice_float32(np.array([0.5, 1.5, 2.5, 3.5], dtype=np.float32)) -> ([1.5, 2.5], [3.5, 0.5])
@njit
def slice_float32(a):
    return a[1:3], a[::-3]


# check: slice_bool(np.array([True, False, True])) -> ([True, False, True], [False, True])
@njit
def slice_bool(a):
    return a[::-1], a[1:]


# check: slice_int32(np.array([1, 2, 3, 4], dtype=np.int32)) -> ([1, 3], [4])
@njit
def slice_int32(a):
    return a[::2], a[-1:]


# check: slice_meta(np.arange(10)) -> ((3,), 3, 1, 3, (24,))
@njit
def slice_meta(a):
    v = a[1:9:3]
    return v.shape, v.size, v.ndim, len(v), v.strides


# ---------------------------------------------------------------- 2-D and 3-D views


# check: row_view(np.array([[1, 2, 3], [4, 5, 6]]), 1) -> [4, 5, 6]
# check: row_view(np.array([[1, 2, 3], [4, 5, 6]]), -2) -> [1, 2, 3]
@njit
def row_view(a, i):
    return a[i]


# check: row_view_writes(np.zeros((2, 3)), 1) -> None ; arg0 == [[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]
@njit
def row_view_writes(a, i):
    r = a[i]
    for j in range(r.shape[0]):
        r[j] = j + 1.0


# check: row_and_column(np.arange(12).reshape(3, 4), 1, 2) -> ([4, 5, 6, 7], [2, 6, 10])
# check: row_and_column(np.arange(12).reshape(3, 4), -1, -1) -> ([8, 9, 10, 11], [3, 7, 11])
@njit
def row_and_column(a, i, j):
    return a[i, :], a[:, j]


# check: sub_block(np.arange(20).reshape(4, 5)) -> [[5, 7, 9], [10, 12, 14]]
@njit
def sub_block(a):
    return a[1:-1, ::2]


# check: reversed_2d(np.arange(6).reshape(2, 3)) -> ([[5, 4, 3], [2, 1, 0]], [[2, 1, 0], [5, 4, 3]])
@njit
def reversed_2d(a):
    return a[::-1, ::-1], a[:, ::-1]


# check: ellipsis_3d(np.arange(24).reshape(2, 3, 4), 1) -> [[1, 5, 9], [13, 17, 21]]
@njit
def ellipsis_3d(a, k):
    return a[..., k]


# check: ellipsis_2d(np.arange(6).reshape(2, 3)) -> ([0, 3], [3, 4, 5], [[1, 2], [4, 5]])
@njit
def ellipsis_2d(a):
    return a[..., 0], a[1, ...], a[..., 1:]


# check: index_3d(np.arange(24).reshape(2, 3, 4)) -> ([[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]], [8, 9, 10, 11], [[4, 5, 6, 7], [16, 17, 18, 19]], [[13, 14], [17, 18], [21, 22]])
@njit
def index_3d(a):
    return a[1], a[0, 2], a[:, 1, :], a[1, :, 1:3]


# check: newaxis_forms(np.array([1.0, 2.0, 3.0])) -> ((1, 3), (3, 1), [[1.0, 2.0, 3.0]], [[1.0], [2.0], [3.0]])
@njit
def newaxis_forms(a):
    r = a[None, :]
    c = a[:, np.newaxis]
    return r.shape, c.shape, r, c


# check: newaxis_2d(np.arange(4).reshape(2, 2)) -> ((2, 1, 2), [[[0, 1]], [[2, 3]]])
@njit
def newaxis_2d(a):
    b = a[:, None, :]
    return b.shape, b


# ---------------------------------------------------------------- transpose / reshape / ravel / flatten


# check: transpose_forms(np.arange(6).reshape(2, 3)) -> ([[0, 3], [1, 4], [2, 5]], [[0, 3], [1, 4], [2, 5]], (3, 2))
# check: transpose_forms(np.zeros((0, 2))) -> ([[], []], [[], []], (2, 0))
@njit
def transpose_forms(a):
    return a.T, a.transpose(), a.T.shape


# check: transpose_3d(np.arange(24).reshape(2, 3, 4)) -> ((4, 3, 2), 23, 16, (3, 2, 4))
@njit
def transpose_3d(a):
    t = a.transpose()
    return t.shape, t[3, 2, 1], a.T[0, 1, 1], a.transpose((1, 0, 2)).shape


# check: transpose_1d(np.array([1, 2, 3])) -> [1, 2, 3]
@njit
def transpose_1d(a):
    return a.T


# check: transpose_writes(np.zeros((2, 3))) -> None ; arg0 == [[0.0, 0.0, 5.0], [7.0, 0.0, 0.0]]
@njit
def transpose_writes(a):
    t = a.T
    t[2, 0] = 5.0
    t[0, 1] = 7.0


# check: reshape_forms(np.arange(6)) -> ([[0, 1, 2], [3, 4, 5]], [[0, 1], [2, 3], [4, 5]], [[0, 1], [2, 3], [4, 5]], [[0, 1, 2, 3, 4, 5]], [0, 1, 2, 3, 4, 5])
@njit
def reshape_forms(a):
    return a.reshape(2, 3), a.reshape((3, 2)), a.reshape(-1, 2), a.reshape((1, -1)), a.reshape(6)


# check: reshape_3d(np.arange(12)) -> ([[[0, 1, 2], [3, 4, 5]], [[6, 7, 8], [9, 10, 11]]], (2, 3, 2))
@njit
def reshape_3d(a):
    return a.reshape(2, -1, 3), a.reshape((2, 3, 2)).shape


# check: reshape_2d_to_1d(np.arange(6).reshape(2, 3)) -> ([0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], [[0, 1], [2, 3], [4, 5]])
@njit
def reshape_2d_to_1d(a):
    return a.reshape(-1), a.reshape(a.size), a.reshape(3, 2)


# check: reshape_runtime(np.arange(12), 3) -> [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
# check: reshape_runtime(np.arange(12), 5) raises ValueError: total size of new array must be unchanged
# check: reshape_runtime(np.arange(0), 4) -> [[], [], [], []]
@njit
def reshape_runtime(a, k):
    return a.reshape(k, -1)


# check: reshape_bad(np.arange(6), 4) raises ValueError: total size of new array must be unchanged
# check: reshape_bad(np.arange(6), 2) raises ValueError: total size of new array must be unchanged
@njit
def reshape_bad(a, k):
    return a.reshape((k, 2))


# check: reshape_two_unknown(np.arange(6)) raises ValueError: multiple negative shape values
@njit
def reshape_two_unknown(a):
    return a.reshape(-1, -1)


# check: reshape_is_view(np.zeros(4)) -> None ; arg0 == [0.0, 0.0, 3.0, 0.0]
@njit
def reshape_is_view(a):
    m = a.reshape(2, 2)
    m[1, 0] = 3.0


# check: np_reshape(np.arange(4)) -> [[0, 1], [2, 3]]
@njit
def np_reshape(a):
    return np.reshape(a, (2, 2))


# check: ravel_flatten(np.arange(6).reshape(2, 3)) -> ([0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], [0, 3, 1, 4, 2, 5], [0, 3, 1, 4, 2, 5], [0, 1, 2, 3, 4, 5])
@njit
def ravel_flatten(a):
    return a.ravel(), a.flatten(), a.T.ravel(), a.T.flatten(), np.ravel(a)


# check: ravel_is_view(np.zeros((2, 2))) -> [0.0, 0.0, 2.0, 0.0] ; arg0 == [[0.0, 1.0], [0.0, 0.0]]
@njit
def ravel_is_view(a):
    r = a.ravel()
    f = a.flatten()
    r[1] = 1.0
    f[2] = 2.0
    return f


# check: ravel_3d(np.arange(8).reshape(2, 2, 2)) -> ([0, 1, 2, 3, 4, 5, 6, 7], [2, 3, 6, 7])
@njit
def ravel_3d(a):
    return a.ravel(), a[:, 1].flatten()


# check: slice_then_flatten(np.arange(10)) -> ([0, 3, 6, 9], [[9, 8, 7, 6, 5], [4, 3, 2, 1, 0]])
@njit
def slice_then_flatten(a):
    return a[::3].flatten(), a[::-1].copy().reshape(2, 5)


# ---------------------------------------------------------------- slice assignment


# check: assign_range(np.zeros(5), np.array([1.0, 2.0, 3.0]), 4) -> None ; arg0 == [0.0, 1.0, 2.0, 3.0, 0.0]
# check: assign_range(np.zeros(3), np.array([7.0, 8.0]), 3) -> None ; arg0 == [0.0, 7.0, 8.0]
@njit
def assign_range(a, x, n):
    a[1:n] = x


# check: assign_scalar_all(np.ones(3)) -> None ; arg0 == [0.0, 0.0, 0.0]
# check: assign_scalar_all(np.ones((2, 2))) -> None ; arg0 == [[0.0, 0.0], [0.0, 0.0]]
@njit
def assign_scalar_all(a):
    a[:] = 0.0


# check: assign_row(np.zeros((2, 3)), 1, np.array([1.0, 2.0, 3.0])) -> None ; arg0 == [[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]
# check: assign_row(np.zeros((2, 3)), -2, np.array([4.0, 5.0, 6.0])) -> None ; arg0 == [[4.0, 5.0, 6.0], [0.0, 0.0, 0.0]]
@njit
def assign_row(a, i, b):
    a[i, :] = b


# check: assign_row_scalar(np.zeros((2, 3), dtype=np.int64), 0, 7) -> None ; arg0 == [[7, 7, 7], [0, 8, 8]]
@njit
def assign_row_scalar(a, i, v):
    a[i, :] = v
    a[i + 1][1:] = v + 1


# check: assign_column(np.zeros((3, 2)), np.array([1.0, 2.0, 3.0])) -> None ; arg0 == [[-1.0, 1.0], [-1.0, 2.0], [-1.0, 3.0]]
@njit
def assign_column(a, c):
    a[:, 1] = c
    a[:, 0] = -1.0


# check: assign_step(np.zeros(6, dtype=np.int32)) -> None ; arg0 == [1, 0, 5, 0, 1, 5]
@njit
def assign_step(a):
    a[::2] = 1
    a[::-3] = 5


# check: assign_broadcast_row(np.zeros((3, 2)), np.array([1.5, 2.5])) -> None ; arg0 == [[1.5, 2.5], [1.5, 2.5], [1.5, 2.5]]
@njit
def assign_broadcast_row(a, r):
    a[:, :] = r


# check: assign_view_from_view(np.arange(6)) -> None ; arg0 == [3, 4, 5, 3, 4, 5]
@njit
def assign_view_from_view(a):
    a[:3] = a[3:].copy()


# check: assign_overlap_reverse(np.arange(5)) -> None ; arg0 == [4, 3, 2, 1, 0]
@njit
def assign_overlap_reverse(a):
    a[:] = a[::-1]


# check: assign_casts(np.zeros(3, dtype=np.int64), np.array([1.7, -2.7, 3.2])) -> None ; arg0 == [1, -2, 3]
@njit
def assign_casts(a, x):
    a[:] = x


# check: assign_f32(np.zeros(3, dtype=np.float32), 0.1) -> None ; arg0 == [0.0, 0.10000000149011612, 0.10000000149011612]
@njit
def assign_f32(a, v):
    a[1:] = v


# check: assign_bool(np.zeros(4, dtype=np.bool_)) -> None ; arg0 == [False, True, True, False]
@njit
def assign_bool(a):
    a[1:3] = True


# Numba's message names both shapes ("cannot assign slice of shape (3,) from input of shape
# (2,)"); twinjit's says "cannot assign slice from input of different shape" (its raise sites
# carry at most three runtime numbers), so only the class is checked.
# check: assign_shape_mismatch(np.zeros(5), np.array([1.0, 2.0])) raises ValueError
@njit
def assign_shape_mismatch(a, x):
    a[1:4] = x


# check: assign_3d_plane(np.zeros((2, 2, 2), dtype=np.int64)) -> None ; arg0 == [[[0, 2], [0, 2]], [[4, 4], [4, 4]]]
@njit
def assign_3d_plane(a):
    a[1] = 4
    a[0, :, 1] = 2


# check: assign_empty_slice(np.ones(3)) -> None ; arg0 == [1.0, 1.0, 1.0]
@njit
def assign_empty_slice(a):
    a[2:1] = 9.0
    a[3:] = 9.0


# ---------------------------------------------------------------- row iteration


# check: iterate_rows(np.arange(6).reshape(3, 2)) -> 12345
@njit
def iterate_rows(a):
    acc = 0
    for row in a:
        acc = acc * 100 + row[0] * 10 + row[1]
    return acc


# check: iterate_rows_3d(np.arange(8).reshape(2, 2, 2)) -> [2, 6]
@njit
def iterate_rows_3d(a):
    out = np.zeros(a.shape[0], dtype=np.int64)
    k = 0
    for plane in a:
        out[k] = plane[1, 0]
        k += 1
    return out


# check: iterate_view_rows(np.arange(6).reshape(3, 2)) -> 53101
@njit
def iterate_view_rows(a):
    s = 0
    for row in a[::-1]:
        s = s * 10 + row[1]
    for r in a.T:
        s = s * 10 + r[0]
    return s


# check: enumerate_rows(np.array([[1.0, 2.0], [3.0, 4.0]])) -> None ; arg0 == [[0.0, 0.0], [1.0, 1.0]]
@njit
def enumerate_rows(a):
    for i, row in enumerate(a):
        row[:] = i


# ---------------------------------------------------------------- view errors


# check: view_oob(np.arange(5), 2) -> 3
# check: view_oob(np.arange(5), 3) raises IndexError
# check: view_oob(np.arange(5), -3) -> 1
# check: view_oob(np.arange(5), -4) raises IndexError
@njit(boundscheck=True)
def view_oob(a, i):
    v = a[1:4]
    return v[i]


# check: view_oob_2d(np.arange(6).reshape(2, 3), 1) -> 5
# check: view_oob_2d(np.arange(6).reshape(2, 3), 2) raises IndexError
@njit(boundscheck=True)
def view_oob_2d(a, j):
    col = a[:, 1:]
    return col[1, j]


# check: row_oob(np.zeros((2, 2)), 2) raises IndexError
# check: row_oob(np.zeros((2, 2)), -3) raises IndexError
@njit(boundscheck=True)
def row_oob(a, i):
    return a[i]


# check: step_zero_2d(np.zeros((2, 2)), 0) raises ValueError: slice step cannot be zero
# check: step_zero_2d(np.zeros((2, 2)), -1) -> [[0.0, 0.0], [0.0, 0.0]]
@njit
def step_zero_2d(a, s):
    return a[::s, :]


# A contiguous array and a strided view of it joined in one variable (Numba relaxes the
# layout to 'A').
# check: first_two_either_way(np.array([0.0, 1.0, 2.0, 3.0, 4.0]), True) -> 7.0
# check: first_two_either_way(np.array([0.0, 1.0, 2.0, 3.0, 4.0]), False) -> 1.0
@njit
def first_two_either_way(a, flip):
    if flip:
        v = a[::-1]
    else:
        v = a
    return v[0] + v[1]


# check: tail_or_reversed_copy(np.array([0.0, 1.0, 2.0, 3.0, 4.0]), True) -> [4.0, 3.0, 2.0, 1.0, 0.0]
# check: tail_or_reversed_copy(np.array([0.0, 1.0, 2.0, 3.0, 4.0]), False) -> [1.0, 2.0, 3.0, 4.0]
@njit
def tail_or_reversed_copy(a, flip):
    if flip:
        return a[::-1].copy()
    return a[1:]


@njit
def slice_objects(a, i, j):
    # slice(...) written inside the subscript is the same as a[i:j] / a[i:j:2] / a[:j]
    return a[slice(i, j)].sum(), a[slice(i, j, 2)].sum(), a[slice(j)].sum(), a[slice(i, None)].sum()


# check: slice_objects(np.arange(10), 2, 7) -> (20, 12, 21, 44)


# Views of a parameter are borrowed (never counted) while they stay inside the call; these
# hand them on: returned from a helper to a caller that owns the buffer, carried around a
# loop, kept in a list.
@njit
def _tail(a, k):
    return a[k:]


# check: owned_tails(6) -> (12.0, 1)
# check: owned_tails(3) -> (0.0, 1)
@njit
def owned_tails(n):
    a = np.arange(n) * 1.0
    t = _tail(_tail(a, 2), 1)
    parts = [a[1:], a[:1]]
    return t.sum(), len(parts[1])


# check: halve_until(np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]), 3) -> [0.0, 1.0]
# check: halve_until(np.array([5.0, 6.0]), 3) -> [5.0, 6.0]
@njit
def halve_until(a, m):
    v = a
    while v.shape[0] > m:
        v = v[: v.shape[0] // 2]
    return v


# check: scaled_rows(np.array([[1.0, 2.0], [3.0, 4.0]]), 2.0) -> None ; arg0 == [[2.0, 4.0], [6.0, 8.0]]
@njit
def _scale_row(row, s):
    for j in range(row.shape[0]):
        row[j] *= s


@njit
def scaled_rows(a, s):
    for i in range(a.shape[0]):
        _scale_row(a[i], s)


# check: channel_stats(np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]])) -> (18.0, 6.0, [1.0, 4.0, 7.0, 10.0], [[0.0, 1.0, 0.0], [3.0, 4.0, 6.0], [6.0, 7.0, 12.0], [9.0, 10.0, 18.0]])
@njit
def channel_stats(img):
    """`img[..., c]`: the last axis whatever the rank; `img[i, ..., c]` down to one number."""
    red = img[..., 0].copy()
    img[..., 2] = red * 2.0
    return red.sum(), img[1, ..., 2], img[..., 1], img
