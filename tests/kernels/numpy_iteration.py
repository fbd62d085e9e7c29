"""NumPy iteration helpers and keyword forms as users write them: np.ndindex over a shape or
dimensions, np.ndenumerate of 1-D and 2-D arrays, a.flat iteration, ufuncs with out=, fused
reductions of expressions, and in-place updates of views."""
import numpy as np
from numba import njit


# check: grid_sum(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])) -> 62.0
@njit
def grid_sum(m):
    """Weighted sum over every index of a 2-D array with np.ndindex(m.shape)."""
    total = 0.0
    for idx in np.ndindex(m.shape):
        i, j = idx
        total += m[idx] * (i + j + 1)
    return total


# check: count_cells(2, 3) -> (6, 5)
# check: count_cells(0, 4) -> (0, -1)
@njit
def count_cells(a, b):
    """np.ndindex(d0, d1): the number of cells and the last flat position."""
    n = 0
    last = -1
    for i, j in np.ndindex(a, b):
        n += 1
        last = i * b + j
    return n, last


# check: ndenum_max(np.array([[1.0, 9.0, 3.0], [4.0, 2.0, 8.0]])) -> (9.0, 0, 1)
@njit
def ndenum_max(m):
    """The largest element and its position, with np.ndenumerate."""
    best = -np.inf
    bi = -1
    bj = -1
    for (i, j), v in np.ndenumerate(m):
        if v > best:
            best = v
            bi = i
            bj = j
    return best, bi, bj


# check: ndenum_1d(np.array([5, 7, 9])) -> 25
@njit
def ndenum_1d(a):
    """np.ndenumerate of a 1-D array: the index is a 1-tuple."""
    s = 0
    for idx, v in np.ndenumerate(a):
        s += idx[0] * v
    return s


# check: flat_iter(np.array([[1, 2], [3, 4]])) -> (10, 4)
@njit
def flat_iter(m):
    """Iterating a.flat visits every element in C order."""
    s = 0
    last = 0
    for v in m.flat:
        s += v
        last = v
    return s, last


# check: rms(np.array([3.0, 4.0])) -> 3.5355339059327378
# check: rms(np.array([1.0, -1.0, 1.0, -1.0])) -> 1.0
@njit
def rms(x):
    """Root mean square of an expression: the reduction folds x * x without a temporary."""
    return np.sqrt(np.mean(x * x))


# check: row_norms(np.array([[3.0, 4.0], [6.0, 8.0], [0.0, 0.0]])) -> [5.0, 10.0, 0.0]
@njit
def row_norms(m):
    """Per-row Euclidean norms from row slices: np.sqrt(np.sum(r * r))."""
    out = np.empty(m.shape[0])
    for i in range(m.shape[0]):
        r = m[i]
        out[i] = np.sqrt(np.sum(r * r))
    return out


# check: scale_rows(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([10.0, 100.0])) -> None ; arg0 == [[10.0, 20.0], [300.0, 400.0]]
@njit
def scale_rows(m, f):
    """In-place update of each row view: m[i] *= f[i]."""
    for i in range(m.shape[0]):
        m[i] *= f[i]


# check: centered(np.array([[1.0, 2.0], [3.0, 6.0]])) -> [[-1.0, -2.0], [1.0, 2.0]]
@njit
def centered(m):
    """Column means removed by broadcasting a 1-D mean over the rows."""
    return m - np.sum(m, axis=0) / m.shape[0]


# check: any_all(np.array([0.5, -1.0, 2.0])) -> (True, False, 1)
@njit
def any_all(x):
    """Reductions of comparisons, fused: any, all and a count."""
    return np.any(x < 0.0), np.all(x > 0.0), np.sum(x < 0.0)


# check: too_big(4611686018427387904) raises ValueError
# check: too_big(3) -> 3
@njit
def too_big(n):
    """A size whose bytes overflow an intp is NumPy's ValueError (Numba's message)."""
    return np.ones(n).shape[0]


# check: too_big_2d(72057594037927936, 64) raises ValueError
# check: too_big_2d(0, 72057594037927936) -> 0
@njit
def too_big_2d(a, b):
    """The same for a 2-D shape; a zero dimension makes any other fit."""
    return np.zeros((a, b)).size


HUGE = 4611686018427387904


# check: too_big_const() raises ValueError
@njit
def too_big_const():
    """The same check for a constant shape (a module-level constant)."""
    return np.full(HUGE, 1).shape[0]


# check: nditer_sum(np.array([[1.0, 2.0], [3.0, 4.0]])) -> (10.0, 4.0)
@njit
def nditer_sum(m):
    """np.nditer over one array: every element in C order, read with .item()."""
    s = 0.0
    last = 0.0
    for x in np.nditer(m):
        s += x.item()
        last = x.item()
    return s, last


# check: flags_of(np.array([[1, 2, 3], [4, 5, 6]])) -> (True, False, False, True, True, True)
@njit
def flags_of(m):
    """a.flags on a C array, its transpose and a row."""
    t = m.T
    r = m[0]
    return m.flags.c_contiguous, m.flags.f_contiguous, t.flags.c_contiguous, t.flags.f_contiguous, r.flags.c_contiguous, r.flags.f_contiguous


# Numba's contiguity rule, not NumPy's: axes of length 0 or 1 at either end do not count, one
# between longer axes does (its stride must chain).
# check: empty_flags(3) -> (True, False, False, False, False, False)
# check: empty_flags(1) -> (True, True, False, False, True, True)
@njit
def empty_flags(n):
    e = np.zeros((n, 0, 2))
    v = np.zeros((n, 4))[:, ::2]
    s = np.zeros((n, 4))[::2, 0:0]
    return (e.flags.c_contiguous, e.flags.f_contiguous, v.flags.c_contiguous, v.flags.f_contiguous,
            s.flags.c_contiguous, s.flags.f_contiguous)


# check: view_flags(np.arange(24).reshape(2, 3, 4)) -> [(False, False), (False, False), (False, False), (False, False), (False, False), (True, False), (False, False)]
@njit
def view_flags(a):
    out = []
    for v in (a[:, :, ::2], a[:, 1:2, :], a[:1, :, :1], a[:, :1, :], a[:, 0:0, :], a[::2], a.T[:, :1, :]):
        out.append((v.flags.c_contiguous, v.flags.f_contiguous))
    return out


# check: masked_views(np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]]), np.array([1.0, -1.0, 2.0, 3.0, -5.0])) -> ([1.0, -4.0], [1.0, 2.0], [2.0, 3.0])
@njit
def masked_views(m, a):
    """Masks evaluated while selecting: of a column and of a strided view (computed into a
    mask array first), and of a contiguous array (one pass, no mask array)."""
    c = m[:, 0]
    s = a[::2]
    return c[c != 0.0], s[s > 0.0], a[a > 1.5]


# np.nditer over several operands: a weighted sum of two grids, a row of weights repeated
# over a 2-D field, and a number that stands for every position (Numba's broadcasting:
# trailing dimensions must be equal).
# check: weighted_total(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[0.5, 0.5], [2.0, 1.0]])) -> 11.5
# check: weighted_total(np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), np.array([1.0, 10.0, 100.0])) -> 753.0
# check: weighted_total(np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), np.array([[1.0, 10.0, 100.0]])) raises ValueError: nditer(): operands could not be broadcast together
# check: weighted_total(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 2.0, 3.0])) raises ValueError: nditer(): operands could not be broadcast together
@njit
def weighted_total(field, w):
    s = 0.0
    for x, y in np.nditer((field, w)):
        s += x.item() * y.item()
    return s


# check: scaled_count(np.array([1, 5, 2, 8, 3]), 3, np.array([1.0, 1.0, 0.5, 2.0, 1.0])) -> 3.0
@njit
def scaled_count(a, threshold, weights):
    n = 0.0
    for x, t, w in np.nditer((a, threshold, weights)):
        if x > t:
            n += w.item()
    return n


# The common shape of arrays, and the arrays broadcast to it as views.
# check: common_shape(np.zeros((4, 1)), np.zeros(3)) -> (4, 3)
# check: common_shape(np.zeros((2, 3)), np.zeros(4)) raises ValueError: shape mismatch: objects cannot be broadcast to a single shape
@njit
def common_shape(a, b):
    return np.broadcast_shapes(a.shape, b.shape, (1, 1))


# check: outer_sums(np.array([1.0, 2.0, 3.0]), np.array([[10.0], [20.0]])) -> ([[11.0, 12.0, 13.0], [21.0, 22.0, 23.0]], (2, 3), 0)
# check: outer_sums(np.array([1.0, 2.0]), np.array([[1.0, 2.0, 3.0]])) raises ValueError: shape mismatch: objects cannot be broadcast to a single shape
@njit
def outer_sums(x, y):
    bx, by = np.broadcast_arrays(x, y)
    out = np.empty(bx.shape)
    for i in range(bx.shape[0]):
        for j in range(bx.shape[1]):
            out[i, j] = bx[i, j] + by[i, j]
    return out, bx.shape, by.strides[1]
