"""NumPy arrays as values: allocation (np.empty/zeros/ones/full and the *_like forms, arange,
linspace, eye, identity, copy, np.array of literals), dtype and shape forms, returning arrays
and tuples of arrays, allocation errors."""
import numpy as np
from numba import njit


# ---------------------------------------------------------------- realistic kernels


# check: normalized(np.array([1.0, 2.0, 3.0, 4.0])) -> [0.0, 0.3333333333333333, 0.6666666666666666, 1.0]
# check: normalized(np.array([5.0])) -> [0.0]
# check: normalized(np.array([-2.0, 2.0])) -> [0.0, 1.0]
@njit
def normalized(x):
    """Return a copy of x scaled to [0, 1]."""
    lo = x[0]
    hi = x[0]
    for v in x:
        lo = min(lo, v)
        hi = max(hi, v)
    out = np.empty_like(x)
    span = hi - lo
    for i in range(x.shape[0]):
        out[i] = (x[i] - lo) / span if span > 0 else 0.0
    return out


# check: moving_average(np.array([1.0, 2.0, 3.0, 4.0, 5.0]), 2) -> [1.5, 2.5, 3.5, 4.5]
# check: moving_average(np.array([1.0, 2.0, 3.0]), 3) -> [2.0]
# check: moving_average(np.array([1.0, 2.0]), 3) -> []
@njit
def moving_average(x, w):
    """Mean of each window of w consecutive values."""
    n = x.shape[0] - w + 1
    if n < 0:
        n = 0
    out = np.empty(n)
    for i in range(n):
        s = 0.0
        for j in range(w):
            s += x[i + j]
        out[i] = s / w
    return out


# check: cumsum(np.array([1, 2, 3, 4])) -> [1, 3, 6, 10]
# check: cumsum(np.array([0.5, 0.25, -1.0])) -> [0.5, 0.75, -0.25]
# check: cumsum(np.zeros(0)) -> []
@njit
def cumsum(x):
    """Running totals of x in a new array of the same dtype."""
    out = np.zeros_like(x)
    acc = 0
    for i in range(x.shape[0]):
        acc = acc + x[i]
        out[i] = acc
    return out


# check: outer(np.array([1.0, 2.0]), np.array([1.0, 10.0, 100.0])) -> [[1.0, 10.0, 100.0], [2.0, 20.0, 200.0]]
# check: outer(np.array([3.0]), np.array([0.5])) -> [[1.5]]
# check: outer(np.zeros(0), np.array([1.0, 2.0])) -> []
@njit
def outer(u, v):
    """Outer product u v^T."""
    n = u.shape[0]
    m = v.shape[0]
    out = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            out[i, j] = u[i] * v[j]
    return out


# check: transposed_copy(np.array([[1, 2, 3], [4, 5, 6]])) -> [[1, 4], [2, 5], [3, 6]]
# check: transposed_copy(np.array([[1.5], [2.5]])) -> [[1.5, 2.5]]
# check: transposed_copy(np.zeros((0, 2))) -> [[], []]
@njit
def transposed_copy(a):
    """A new array holding a's transpose."""
    n, m = a.shape
    out = np.empty((m, n), dtype=a.dtype)
    for i in range(n):
        for j in range(m):
            out[j, i] = a[i, j]
    return out


# check: column_min_max(np.array([[1.0, 5.0], [3.0, -2.0], [2.0, 0.0]])) -> ([1.0, -2.0], [3.0, 5.0])
# check: column_min_max(np.array([[7, 8, 9]])) -> ([7, 8, 9], [7, 8, 9])
@njit
def column_min_max(a):
    """Per-column minima and maxima, returned as two arrays."""
    n, m = a.shape
    mins = np.empty(m, dtype=a.dtype)
    maxs = np.empty(m, dtype=a.dtype)
    for j in range(m):
        lo = a[0, j]
        hi = a[0, j]
        for i in range(1, n):
            v = a[i, j]
            if v < lo:
                lo = v
            if v > hi:
                hi = v
        mins[j] = lo
        maxs[j] = hi
    return mins, maxs


# check: histogram(np.array([0.1, 0.2, 0.5, 0.9, 0.95, 1.5, -0.1]), 4) -> [2, 0, 1, 2]
# check: histogram(np.zeros(0), 3) -> [0, 0, 0]
# check: histogram(np.array([0.0, 0.999]), 1) -> [2]
@njit
def histogram(x, nbins):
    """Counts of x in nbins equal bins over [0, 1); values outside are dropped."""
    counts = np.zeros(nbins, dtype=np.int64)
    for i in range(x.shape[0]):
        v = x[i]
        if v < 0.0 or v >= 1.0:
            continue
        counts[int(v * nbins)] += 1
    return counts


# check: pairwise_dist(np.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])) -> [[0.0, 5.0, 10.0], [5.0, 0.0, 5.0], [10.0, 5.0, 0.0]]
# check: pairwise_dist(np.array([[1.0, 2.0]])) -> [[0.0]]
@njit
def pairwise_dist(pts):
    """Euclidean distance matrix of the rows of pts."""
    n = pts.shape[0]
    d = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            s = 0.0
            for k in range(pts.shape[1]):
                t = pts[i, k] - pts[j, k]
                s += t * t
            d[i, j] = np.sqrt(s)
            d[j, i] = d[i, j]
    return d


# check: smooth_passes(np.array([0.0, 0.0, 9.0, 0.0, 0.0]), 2) -> [1.0, 2.0, 3.0, 2.0, 1.0]
# check: smooth_passes(np.array([1.0, 2.0]), 3) -> [1.4814814814814816, 1.5185185185185184]
@njit
def smooth_passes(x, passes):
    """Three-point smoothing repeated `passes` times, a temporary allocated per pass."""
    cur = x.copy()
    n = cur.shape[0]
    for p in range(passes):
        nxt = np.empty(n)
        for i in range(n):
            lo = cur[i - 1] if i > 0 else cur[i]
            hi = cur[i + 1] if i < n - 1 else cur[i]
            nxt[i] = (lo + cur[i] + hi) / 3.0
        cur = nxt
    return cur


# check: checked_scale(np.array([1.0, 2.0]), 2.0) -> [2.0, 4.0]
# check: checked_scale(np.array([1.0, -2.0]), 2.0) raises ValueError: negative input
@njit
def checked_scale(x, f):
    """Scale into a new array; negative inputs are rejected after allocating."""
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        if x[i] < 0:
            raise ValueError("negative input")
        out[i] = x[i] * f
    return out


# check: running_max(np.array([3, 1, 4, 1, 5, 9, 2, 6])) -> [3, 3, 4, 4, 5, 9, 9, 9]
# check: running_max(np.array([-1.5])) -> [-1.5]
@njit
def running_max(x):
    """Prefix maxima."""
    out = np.empty_like(x)
    m = x[0]
    for i in range(x.shape[0]):
        if x[i] > m:
            m = x[i]
        out[i] = m
    return out


# check: vandermonde(np.array([1.0, 2.0, 3.0]), 3) -> [[1.0, 1.0, 1.0], [1.0, 2.0, 4.0], [1.0, 3.0, 9.0]]
# check: vandermonde(np.array([2.0]), 1) -> [[1.0]]
@njit
def vandermonde(x, k):
    """Columns x**0 .. x**(k-1)."""
    v = np.ones((x.shape[0], k))
    for i in range(x.shape[0]):
        for j in range(1, k):
            v[i, j] = v[i, j - 1] * x[i]
    return v


# check: threshold_mask(np.array([0.5, 2.0, -1.0, 3.0]), 1.0) -> [False, True, False, True]
# check: threshold_mask(np.zeros(0), 1.0) -> []
@njit
def threshold_mask(x, t):
    """Boolean mask x > t."""
    m = np.zeros(x.shape[0], dtype=np.bool_)
    for i in range(x.shape[0]):
        m[i] = x[i] > t
    return m


# check: grid_3d(2, 2, 3) -> [[[0, 1, 2], [10, 11, 12]], [[100, 101, 102], [110, 111, 112]]]
@njit
def grid_3d(a, b, c):
    """A 3-D array of i*100 + j*10 + k."""
    g = np.empty((a, b, c), dtype=np.int64)
    for i in range(a):
        for j in range(b):
            for k in range(c):
                g[i, j, k] = i * 100 + j * 10 + k
    return g


# ---------------------------------------------------------------- np.empty / zeros / ones / full


# check: zeros_int(3) -> [0.0, 0.0, 0.0]
# check: zeros_int(0) -> []
# check: zeros_int(-1) raises ValueError: negative dimensions not allowed
# check: zeros_int(np.int32(2)) -> [0.0, 0.0]
@njit
def zeros_int(n):
    return np.zeros(n)


# check: zeros_tuple(2, 3) -> [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
# check: zeros_tuple(0, 2) -> []
# check: zeros_tuple(2, 0) -> [[], []]
# check: zeros_tuple(2, -3) raises ValueError: negative dimensions not allowed
@njit
def zeros_tuple(n, m):
    return np.zeros((n, m))


# check: zeros_3d(1, 2, 2) -> [[[0, 0], [0, 0]]]
@njit
def zeros_3d(a, b, c):
    return np.zeros((a, b, c), dtype=np.int32)


# check: zeros_dtypes(2) -> ([0.0, 0.0], [0, 0], [0, 0], [False, False])
@njit
def zeros_dtypes(n):
    return (np.zeros(n, dtype=np.float32), np.zeros(n, dtype=np.int32),
            np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.bool_))


# check: zeros_positional_dtype(3) -> [0, 0, 0]
@njit
def zeros_positional_dtype(n):
    return np.zeros(n, np.int64)


# check: ones_forms(2) -> ([1.0, 1.0], [[1], [1]], [True, True])
@njit
def ones_forms(n):
    return np.ones(n), np.ones((n, 1), dtype=np.int32), np.ones(n, dtype=np.bool_)


# check: ones_negative(-2) raises ValueError: negative dimensions not allowed
@njit
def ones_negative(n):
    return np.ones((3, n))


# check: empty_filled(4) -> [0, 1, 4, 9]
# check: empty_filled(0) -> []
# check: empty_filled(-1) raises ValueError: negative dimensions not allowed
@njit
def empty_filled(n):
    a = np.empty(n, dtype=np.int64)
    for i in range(n):
        a[i] = i * i
    return a


# check: empty_2d_f32(2, 3) -> [[0.0, 0.5, 1.0], [1.0, 1.5, 2.0]]
@njit
def empty_2d_f32(n, m):
    a = np.empty((n, m), dtype=np.float32)
    for i in range(n):
        for j in range(m):
            a[i, j] = i + 0.5 * j
    return a


# check: dtype_strings(2) -> ([0.0, 0.0], [0.0, 0.0], [1, 1], [1, 1])
@njit
def dtype_strings(n):
    return (np.zeros(n, dtype='float64'), np.zeros(n, dtype='float32'),
            np.ones(n, dtype='int32'), np.ones(n, dtype='int64'))


# check: dtype_builtins(2) -> ([0.0, 0.0], [1.0, 1.0], [])
@njit
def dtype_builtins(n):
    return np.zeros(n, dtype=float), np.ones(n, dtype=float), np.empty(0, dtype=float)


# check: shape_from_array(np.zeros((2, 3))) -> [[1, 1, 1], [1, 1, 1]]
# check: shape_from_array(np.zeros((0, 1))) -> []
@njit
def shape_from_array(a):
    return np.ones(a.shape, dtype=np.int64)


# check: shape_from_tuple_var(2, 2) -> [[7, 7, 7], [7, 7, 7]]
@njit
def shape_from_tuple_var(n, m):
    shp = (n, m + 1)
    return np.full(shp, 7)


# check: full_forms(2) -> ([1.5, 1.5], [3, 3], [True, True], [[2.5, 2.5], [2.5, 2.5]])
@njit
def full_forms(n):
    return np.full(n, 1.5), np.full(n, 3), np.full(n, True), np.full((n, 2), 2.5)


# check: full_dtype(3, 2.7) -> ([2, 2, 2], [2.700000047683716, 2.700000047683716, 2.700000047683716])
# check: full_dtype(1, -1.0) -> ([-1], [-1.0])
@njit
def full_dtype(n, v):
    return np.full(n, v, dtype=np.int32), np.full(n, v, np.float32)


# check: full_infers_dtype(np.float32(0.1)) -> [0.10000000149011612, 0.20000000298023224]
# check: full_infers_dtype(np.int32(3)) -> [3, 6]
# check: full_infers_dtype(True) -> [True, True]
# check: full_infers_dtype(2) -> [2, 4]
@njit
def full_infers_dtype(v):
    """np.full without dtype takes the fill value's type."""
    a = np.full(2, v)
    a[1] = a[0] + a[0]
    return a


# check: dtype_string_forms(2) -> ([1, 1], [[1, 0], [0, 1]], [1.0, 2.0], [3, 3])
@njit
def dtype_string_forms(n):
    return (np.full(n, 1, dtype='int32'), np.identity(n, dtype='int32'),
            np.array([1, 2], dtype='float32'), np.full_like(np.zeros(n), 3, dtype='int64'))


# check: full_int_to_float(2, 4) -> [[4.0, 4.0], [4.0, 4.0]]
@njit
def full_int_to_float(n, v):
    return np.full((n, n), v, dtype=np.float64)


# check: full_negative(-1) raises ValueError: negative dimensions not allowed
@njit
def full_negative(n):
    return np.full(n, 0.0)


# ---------------------------------------------------------------- *_like


# check: like_forms(np.array([1.0, 2.0, 3.0])) -> ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.5, 2.5, 2.5])
# check: like_forms(np.zeros(0)) -> ([], [], [])
@njit
def like_forms(a):
    return np.zeros_like(a), np.ones_like(a), np.full_like(a, 2.5)


# check: like_keeps_dtype(np.array([1, 2], dtype=np.int32)) -> ([0, 0], [1, 1])
# check: like_keeps_dtype(np.array([True, False])) -> ([False, False], [True, True])
@njit
def like_keeps_dtype(a):
    return np.zeros_like(a), np.ones_like(a)


# check: like_2d(np.array([[1.5, 2.5], [3.5, 4.5]])) -> [[3.0, 5.0], [7.0, 9.0]]
@njit
def like_2d(a):
    b = np.empty_like(a)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            b[i, j] = a[i, j] * 2.0
    return b


# check: like_dtype(np.array([1.5, 2.5])) -> ([0, 0], [1.0, 1.0], [7, 7])
@njit
def like_dtype(a):
    return np.zeros_like(a, dtype=np.int64), np.ones_like(a, dtype=np.float32), np.full_like(a, 7, dtype=np.int32)


# check: full_like_casts(np.array([1, 2, 3]), 2.9) -> [2, 2, 2]
@njit
def full_like_casts(a, v):
    return np.full_like(a, v)


# ---------------------------------------------------------------- arange


# check: arange_stop(5) -> [0, 1, 2, 3, 4]
# check: arange_stop(0) -> []
# check: arange_stop(-3) -> []
# check: arange_stop(np.int32(3)) -> [0, 1, 2]
# A float stop gives float64 values:
# check: arange_stop(2.5) -> [0.0, 1.0, 2.0]
# check: arange_stop(3.0) -> [0.0, 1.0, 2.0]
@njit
def arange_stop(n):
    return np.arange(n)


# check: arange_start_stop(2, 6) -> [2, 3, 4, 5]
# check: arange_start_stop(6, 2) -> []
# check: arange_start_stop(-2, 1) -> [-2, -1, 0]
@njit
def arange_start_stop(a, b):
    return np.arange(a, b)


# check: arange_step(0, 10, 3) -> [0, 3, 6, 9]
# check: arange_step(10, 0, -3) -> [10, 7, 4, 1]
# check: arange_step(0, 10, -1) -> []
# check: arange_step(5, 5, 1) -> []
# check: arange_step(0, 5, 0) raises ValueError: Maximum allowed size exceeded
# Float start, stop and step:
# check: arange_step(0.0, 1.0, 0.25) -> [0.0, 0.25, 0.5, 0.75]
# check: arange_step(0.0, 1.0, 0.3) -> [0.0, 0.3, 0.6, 0.8999999999999999]
# check: arange_step(1.0, 0.0, -0.5) -> [1.0, 0.5]
# check: arange_step(0.0, 0.3, 0.1) -> [0.0, 0.1, 0.2]
# check: arange_step(0.5, 3.0, 1.0) -> [0.5, 1.5, 2.5]
# check: arange_step(1.0, 0.0, -0.3) -> [1.0, 0.7, 0.4, 0.10000000000000009]
# check: arange_step(0.0, -1.0, 0.5) -> []
# check: arange_step(0.0, 1.0, 0.0) raises ValueError: Maximum allowed size exceeded
@njit
def arange_step(a, b, s):
    return np.arange(a, b, s)


# check: arange_mixed(1, 2.0) -> ([1.0, 1.5], [1, 2, 3])
@njit
def arange_mixed(a, b):
    return np.arange(a, b, 0.5), np.arange(a, 4)


# check: arange_dtype(4) -> ([0.0, 1.0, 2.0, 3.0], [0, 2], [0.0, 1.0, 2.0, 3.0])
@njit
def arange_dtype(n):
    return np.arange(n, dtype=np.float64), np.arange(0, n, 2, dtype=np.int32), np.arange(n, dtype=np.float32)


# check: arange_literal() -> ([0, 1, 2], [1, 2, 3], [10, 6, 2], [0.0, 0.5])
@njit
def arange_literal():
    return np.arange(3), np.arange(1, 4), np.arange(10, 0, -4), np.arange(0.0, 1.0, 0.5)


# ---------------------------------------------------------------- linspace


# check: linspace_basic(0.0, 1.0, 5) -> [0.0, 0.25, 0.5, 0.75, 1.0]
# check: linspace_basic(0.0, 1.0, 1) -> [0.0]
# check: linspace_basic(0.0, 1.0, 0) -> []
# check: linspace_basic(1.0, -1.0, 3) -> [1.0, 0.0, -1.0]
# check: linspace_basic(0.0, 1.0, 7) -> [0.0, 0.16666666666666666, 0.3333333333333333, 0.5, 0.6666666666666666, 0.8333333333333333, 1.0]
# check: linspace_basic(0.1, 0.7, 4) -> [0.1, 0.3, 0.5, 0.7]
# check: linspace_basic(0.0, 1.0, 2) -> [0.0, 1.0]
# check: linspace_basic(0.0, 0.3, 4) -> [0.0, 0.09999999999999999, 0.19999999999999998, 0.3]
# Int bounds still give float64 values:
# check: linspace_basic(0, 10, 4) -> [0.0, 3.3333333333333335, 6.666666666666667, 10.0]
# check: linspace_basic(2, 2, 3) -> [2.0, 2.0, 2.0]
@njit
def linspace_basic(a, b, n):
    return np.linspace(a, b, n)


# check: linspace_default() -> (50, 0.0, 1.0, 49.0)
@njit
def linspace_default():
    x = np.linspace(0.0, 49.0)
    return x.shape[0], x[0], x[1], x[-1]


# check: linspace_negative(-1) raises ValueError: negative dimensions not allowed
@njit
def linspace_negative(n):
    return np.linspace(0.0, 1.0, n)


# ---------------------------------------------------------------- eye / identity


# check: eye_square(3) -> [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
# check: eye_square(0) -> []
# check: eye_square(1) -> [[1.0]]
@njit
def eye_square(n):
    return np.eye(n)


# check: eye_rect(2, 4, 1) -> [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]]
# check: eye_rect(3, 2, -1) -> [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
# check: eye_rect(3, 3, 5) -> [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
# check: eye_rect(3, 3, -3) -> [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
# check: eye_rect(2, 3, 0) -> [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
# check: eye_rect(1, 3, 2) -> [[0.0, 0.0, 1.0]]
# check: eye_rect(3, 1, -2) -> [[0.0], [0.0], [1.0]]
# check: eye_rect(2, 0, 0) -> [[], []]
@njit
def eye_rect(n, m, k):
    return np.eye(n, m, k)


# check: eye_keywords(3) -> ([[0, 1, 0], [0, 0, 1], [0, 0, 0]], [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]], [[True, False], [False, True]])
@njit
def eye_keywords(n):
    return np.eye(n, k=1, dtype=np.int64), np.eye(n, M=2), np.eye(2, dtype=np.bool_)


# check: eye_negative(-1) raises ValueError: negative dimensions not allowed
@njit
def eye_negative(n):
    return np.eye(n)


# check: identity_forms(2) -> ([[1.0, 0.0], [0.0, 1.0]], [[1, 0], [0, 1]])
# check: identity_forms(0) -> ([], [])
@njit
def identity_forms(n):
    return np.identity(n), np.identity(n, dtype=np.int32)


# ---------------------------------------------------------------- copies


# check: copy_is_independent(np.array([1.0, 2.0, 3.0])) -> ([10.0, 2.0, 3.0], [1.0, 20.0, 3.0]) ; arg0 == [1.0, 2.0, 3.0]
@njit
def copy_is_independent(a):
    b = a.copy()
    c = np.copy(a)
    b[0] = 10.0
    c[1] = 20.0
    return b, c


# check: copy_2d(np.array([[1, 2], [3, 4]])) -> [[1, 2], [3, 4]]
# check: copy_2d(np.zeros((0, 3), dtype=np.int32)) -> []
@njit
def copy_2d(a):
    return a.copy()


# check: copy_float32(np.array([0.1, 0.2], dtype=np.float32)) -> [0.10000000149011612, 1.2000000476837158]
@njit
def copy_float32(a):
    b = np.copy(a)
    b[1] += np.float32(1.0)
    return b


# ---------------------------------------------------------------- np.array of literals


# check: array_from_list(2.5) -> [1.0, 2.5, 3.0]
@njit
def array_from_list(x):
    return np.array([1.0, x, 3.0])


# check: array_int_list(4) -> [4, 5, 8]
@njit
def array_int_list(n):
    return np.array([n, n + 1, n * 2])


# check: array_mixed_list() -> [1.0, 2.0]
@njit
def array_mixed_list():
    return np.array([1, 2.0])


# check: array_from_tuple(3) -> [3, 6]
@njit
def array_from_tuple(n):
    return np.array((n, 2 * n))


# check: array_nested(1.0) -> [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
@njit
def array_nested(x):
    return np.array([[x, 2.0], [3.0, 4.0], [5.0, 6.0]])


# check: array_dtype_kw(3) -> ([3.0, 2.0, 1.0], [1, 2], [False, True])
@njit
def array_dtype_kw(n):
    return np.array([n, 2, 1], dtype=np.float32), np.array([1.5, 2.5], dtype=np.int64), np.array([0, 1], dtype=np.bool_)


# check: array_bools(1, 2) -> [True, False, True]
@njit
def array_bools(a, b):
    return np.array([a < b, a == b, True])


# check: array_3d() -> [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
@njit
def array_3d():
    return np.array([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])


# check: array_literal_shape() -> (2, 2)
@njit
def array_literal_shape():
    return np.array([[1, 2], [3, 4]]).shape


# ---------------------------------------------------------------- returning, dtype of results


# check: return_pair(3) -> ([0, 1, 2], [0.0, 2.0, 4.0])
@njit
def return_pair(n):
    a = np.arange(n)
    b = np.empty(n)
    for i in range(n):
        b[i] = a[i] * 2.0
    return a, b


# check: return_with_scalar(4) -> (2.083333333333333, [1.0, 0.5, 0.3333333333333333, 0.25])
@njit
def return_with_scalar(n):
    a = np.zeros(n)
    for i in range(n):
        a[i] = 1.0 / (i + 1)
    s = 0.0
    for v in a:
        s += v
    return s, a


# check: allocated_meta(2, 3) -> ((2, 3), 6, 2, 2, (12, 4), 4)
@njit
def allocated_meta(n, m):
    a = np.zeros((n, m), dtype=np.int32)
    return a.shape, a.size, a.ndim, len(a), a.strides, a.itemsize


# check: alloc_in_branch(True, 2) -> [1.0, 1.0]
# check: alloc_in_branch(False, 2) -> [0.0, 0.0, 0.0]
@njit
def alloc_in_branch(flag, n):
    if flag:
        a = np.ones(n)
    else:
        a = np.zeros(n + 1)
    return a


# check: realloc_in_loop(4) -> [1, 4, 6, 4, 1]
# check: realloc_in_loop(1) -> [1, 1]
@njit
def realloc_in_loop(n):
    """Pascal's triangle row n, a fresh array for each row."""
    row = np.ones(1, dtype=np.int64)
    for k in range(1, n + 1):
        nxt = np.ones(k + 1, dtype=np.int64)
        for i in range(1, k):
            nxt[i] = row[i - 1] + row[i]
        row = nxt
    return row


# check: pass_through(np.array([1, 2, 3])) -> [1, 2, 3]
@njit
def pass_through(a):
    return a


# check: build_and_sum(5) -> 30.0
# check: build_and_sum(0) -> 0.0
@njit
def build_and_sum(n):
    tmp = np.arange(n, dtype=np.float64)
    s = 0.0
    for i in range(n):
        s += tmp[i] * tmp[i]
    return s


# check: alloc_then_fail(3) -> 5.0
# check: alloc_then_fail(-3) raises ValueError: negative dimensions not allowed
@njit
def alloc_then_fail(n):
    a = np.ones(2)
    b = np.zeros(n)
    return a[0] + a[1] + b.size


# check: fortran_copy(np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])) -> ([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], (8, 16), [0.0, 3.0, 1.0, 4.0, 2.0, 5.0])
@njit
def fortran_copy(a):
    """np.asfortranarray: the same values in column-major memory (its transpose is C order)."""
    f = np.asfortranarray(a)
    return f, f.strides, f.T.ravel()


COUNT_DTYPE = "int32"


# check: tally(np.array([0, 2, 2, 1, 2]), 3) -> ([1, 1, 3], 4)
# check: tally(np.array([1, 1]), 2) -> ([0, 2], 4)
@njit
def tally(labels, k):
    """Counts per label, in the dtype the module names as a string."""
    counts = np.zeros(k, COUNT_DTYPE)
    for v in labels:
        counts[v] += 1
    return counts, counts.itemsize


# check: half_scale(np.array([1.0, 2.5, -4.0]), 2.0) -> ([0.5, 1.25, -2.0], 4, 2)
@njit
def half_scale(x, d):
    """np.dtype(...) and dtype strings where a dtype is expected."""
    y = (x / d).astype("f4")
    z = np.empty(x.shape[0], dtype=np.dtype("int16"))
    for i in range(z.shape[0]):
        z[i] = i
    return y, y.itemsize, z.itemsize
