"""Array manipulation as users write it: flips, expand_dims, broadcast_to, take, repeat, roll,
triu/tril and fill_diagonal, checked against Numba."""
import numpy as np
from numba import njit


# check: flips(np.array([[1, 2, 3], [4, 5, 6]])) -> ([[6, 5, 4], [3, 2, 1]], [[4, 5, 6], [1, 2, 3]], [[3, 2, 1], [6, 5, 4]])
@njit
def flips(m):
    """np.flip reverses every axis, flipud the rows, fliplr the columns (all views)."""
    return np.flip(m), np.flipud(m), np.fliplr(m)


# check: reverse_in_place(np.array([1.0, 2.0, 3.0, 4.0])) -> [4.0, 3.0, 2.0, 1.0]
@njit
def reverse_in_place(a):
    """A flipped view copied back: np.flip(a).copy()."""
    return np.flip(a).copy()


# check: expand(np.array([1.0, 2.0, 3.0])) -> ((1, 3), (3, 1), [[1.0], [2.0], [3.0]])
@njit
def expand(a):
    """np.expand_dims at the front and at the end (negative axis)."""
    r = np.expand_dims(a, 0)
    c = np.expand_dims(a, -1)
    return r.shape, c.shape, c.copy()


# check: outer_by_broadcast(np.array([1.0, 2.0]), np.array([10.0, 20.0, 30.0])) -> [[10.0, 20.0, 30.0], [20.0, 40.0, 60.0]]
@njit
def outer_by_broadcast(a, b):
    """np.broadcast_to repeats a column without copying; the product allocates once."""
    col = np.broadcast_to(np.expand_dims(a, 1), (a.shape[0], b.shape[0]))
    return col * b


# check: takes(np.array([[1, 2], [3, 4]]), np.array([3, 0, -1])) -> ([4, 1, 4], 2)
@njit
def takes(m, idx):
    """np.take indexes the flattened array (negative from the end)."""
    return np.take(m, idx), np.take(m, 1)


# check: repeats(np.array([1, 2, 3])) -> [1, 1, 2, 2, 3, 3]
@njit
def repeats(a):
    return np.repeat(a, 2)


# check: rolls(np.array([1, 2, 3, 4, 5])) -> ([4, 5, 1, 2, 3], [2, 3, 4, 5, 1])
@njit
def rolls(a):
    return np.roll(a, 2), np.roll(a, -1)


# check: triangles(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])) -> ([[1.0, 2.0, 3.0], [0.0, 5.0, 6.0], [0.0, 0.0, 9.0]], [[1.0, 0.0, 0.0], [4.0, 5.0, 0.0], [7.0, 8.0, 9.0]], [[0.0, 2.0, 3.0], [0.0, 0.0, 6.0], [0.0, 0.0, 0.0]])
@njit
def triangles(m):
    return np.triu(m), np.tril(m), np.triu(m, 1)


# check: diag_fill(3) -> [[5.0, 0.0, 0.0], [0.0, 5.0, 0.0], [0.0, 0.0, 5.0]]
@njit
def diag_fill(n):
    a = np.zeros((n, n))
    np.fill_diagonal(a, 5.0)
    return a


# check: take_bad(np.array([1, 2, 3])) raises IndexError
@njit
def take_bad(a):
    return np.take(a, 7)


# check: conversions(np.array([[1.0, 2.0], [3.0, 4.0]])) -> (4.0, [1.0, 3.0], [1.0, 2.0, 3.0], [2.0, 4.0])
@njit
def conversions(m):
    """np.ascontiguousarray of a column view copies; np.asarray of an array is the array; of a
    list, a new array."""
    col = np.ascontiguousarray(m[:, 0])
    same = np.asarray(m)
    lst = np.asarray([1.0, 2.0, 3.0])
    return same[1, 1], col, lst, np.ascontiguousarray(m.T)[1]


# check: equal_arrays(np.array([1, 2, 3]), np.array([1, 2, 3]), np.array([1, 2])) -> (True, False, False)
@njit
def equal_arrays(a, b, c):
    return np.array_equal(a, b), np.array_equal(a, c), np.array_equal(a, b + 1)


# check: bins_of(np.array([0.2, 1.0, 2.5, -1.0, 4.0]), np.array([0.0, 1.0, 2.0, 3.0])) -> ([1, 2, 3, 0, 4], [1, 1, 3, 0, 4], 2)
@njit
def bins_of(x, edges):
    """np.digitize with increasing bins, left- and right-closed."""
    return np.digitize(x, edges), np.digitize(x, edges, right=True), np.digitize(1.5, edges)


# check: cube_roots(np.array([27.0, -8.0, 2.0])) -> [3.0, -2.0, 1.2599210498948732]
@njit
def cube_roots(a):
    return np.cbrt(a)


# check: clip_into(np.array([-1.0, 0.5, 3.0])) -> ([0.0, 0.5, 1.0], [0.0, 0.5, 1.0])
@njit
def clip_into(a):
    """np.clip with an output array, which it also returns."""
    out = np.empty_like(a)
    r = np.clip(a, 0.0, 1.0, out)
    return out, r


# check: round_scalars(2.5, 3.14159) -> (2.0, 3.14, 3.0)
@njit
def round_scalars(x, y):
    """np.round of numbers: half to even, with decimals."""
    return np.round(x), np.round(y, 2), np.round(y)


# check: diagonals(np.array([[1, 2, 3], [4, 5, 6]]), np.array([7, 8])) -> ([2, 6], [4], [[0, 7, 0], [0, 0, 8], [0, 0, 0]], [[0, 0, 0], [7, 0, 0], [0, 8, 0]])
@njit
def diagonals(m, v):
    """np.diag with k: the k-th diagonal of a matrix, the k-th diagonal matrix of a vector."""
    return np.diag(m, 1), np.diag(m, k=-1), np.diag(v, 1), np.diag(v, k=-1)


# check: keyword_forms(np.array([1.0, -2.0, 3.5])) -> (7.5, [1.0, 0.0, 1.0], [1.0, -2.0, 3.5], 3.5)
@njit
def keyword_forms(a):
    """Builtins called with keywords: sum(start=), np.clip(out=), np.round(decimals=)."""
    out = np.empty_like(a)
    np.clip(a, a_min=0.0, a_max=1.0, out=out)
    return sum(a, start=5.0), out, np.round(a, decimals=1), np.where(a > 3.0, a, 0.0).max()


@njit
def clip_maybe_into(a, out=None):
    """An optional output array passed on to np.clip: None means a new array."""
    return np.clip(a, 0.0, 1.0, out=out)


# check: clip_optional_out(np.array([-1.0, 0.25, 4.0])) -> ([0.0, 0.25, 1.0], [0.0, 0.25, 1.0])
@njit
def clip_optional_out(a):
    buf = np.empty_like(a)
    clip_maybe_into(a, buf)
    return clip_maybe_into(a), buf



# check: tall_diagonal(5, 2) -> ([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
@njit
def tall_diagonal(m, n):
    """np.fill_diagonal of a tall matrix, without and with wrap (NumPy's walk)."""
    a = np.zeros((m, n))
    np.fill_diagonal(a, 1.0)
    b = np.zeros((m, n))
    np.fill_diagonal(b, 1.0, True)
    return a, b


# check: round_into(np.array([1.26, -0.55, 2.5])) -> ([1.3, -0.6, 2.5], [1.3, -0.6, 2.5])
@njit
def round_into(a):
    """np.round with an output array, which it also returns."""
    out = np.empty_like(a)
    r = np.round(a, 1, out)
    return out, r


@njit
def transpose_axes_keyword(a):
    return np.transpose(a, axes=(1, 0))


# check: transpose_axes_keyword(np.arange(6).reshape(2, 3)) -> [[0, 3], [1, 4], [2, 5]]


@njit
def transpose_axes_argument(a, axes):
    return np.transpose(a, axes=axes).copy()


# check: transpose_axes_argument(np.arange(6).reshape(2, 3), (1, 0)) -> [[0, 3], [1, 4], [2, 5]]


@njit
def transpose_runtime_axes_3d(a, axes):
    return np.transpose(a, axes).copy()


# check: transpose_runtime_axes_3d(np.arange(24).reshape(2, 3, 4), (2, 0, 1)) -> [[[0, 4, 8], [12, 16, 20]], [[1, 5, 9], [13, 17, 21]], [[2, 6, 10], [14, 18, 22]], [[3, 7, 11], [15, 19, 23]]]
# check: transpose_runtime_axes_3d(np.arange(24).reshape(2, 3, 4), (-1, 1, 0)) -> [[[0, 12], [4, 16], [8, 20]], [[1, 13], [5, 17], [9, 21]], [[2, 14], [6, 18], [10, 22]], [[3, 15], [7, 19], [11, 23]]]
# check: transpose_runtime_axes_3d(np.arange(24).reshape(2, 3, 4), (0, 0, 1)) raises ValueError: repeated axis in transpose
# check: transpose_runtime_axes_3d(np.arange(24).reshape(2, 3, 4), (0, 3, 1)) raises ValueError: axis is out of bounds for array of given dimension


@njit
def transpose_axes_none(a, axes):
    # axes=None reverses the axes, as a.T
    return a.transpose(axes).copy()


# check: transpose_axes_none(np.arange(6).reshape(2, 3), None) -> [[0, 3], [1, 4], [2, 5]]
