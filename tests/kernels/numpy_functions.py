"""NumPy library functions on arrays: where, nonzero, clip, sort/argsort, searchsorted, unique,
concatenate/stack/hstack/vstack, diff, interp, bincount, histogram, isclose/allclose, dot vdot
outer and @, linalg.norm, trace, cross, and np.random with a seed set inside the function.
(dot, @ and norm go through BLAS/LAPACK: Numba needs scipy installed to run them.)"""
import numpy as np
from numba import njit


# ---------------------------------------------------------------- realistic kernels


# check: piecewise(np.array([-2.0, -0.5, 0.0, 1.5, 3.0])) -> [1.5, 0.125, 0.0, 1.0, 2.5]
@njit
def piecewise(x):
    """Huber-like loss with np.where choosing between two branches."""
    ax = np.abs(x)
    return np.where(ax <= 1.0, 0.5 * x * x, ax - 0.5)


# check: bin_indices(np.array([0.0, 1.0, 2.5, 4.0]), np.array([-1.0, 0.0, 0.5, 1.0, 3.9, 4.0, 5.0])) -> [0, 0, 0, 1, 2, 2, 2]
@njit
def bin_indices(edges, x):
    """Which bin each value falls in (values outside clipped to the end bins)."""
    i = np.searchsorted(edges, x, side='right') - 1
    return np.clip(i, 0, edges.shape[0] - 2)


# check: resample(np.array([0.0, 1.0, 2.0, 4.0]), np.array([0.0, 10.0, 20.0, 0.0]), np.array([-1.0, 0.5, 1.0, 3.0, 5.0])) -> [0.0, 5.0, 10.0, 10.0, 0.0]
@njit
def resample(xp, fp, x):
    """Linear interpolation onto new points; outside the range the end values hold."""
    return np.interp(x, xp, fp)


# check: label_counts(np.array([2, 0, 2, 3, 2, 0])) -> ([0, 2, 3], [2, 0, 3, 1], 2)
@njit
def label_counts(labels):
    """Distinct labels, their counts, and the most common label."""
    u = np.unique(labels)
    c = np.bincount(labels)
    return u, c, np.argmax(c)


# check: gradient_1d(np.array([1.0, 4.0, 9.0, 16.0, 25.0])) -> ([3.0, 5.0, 7.0, 9.0], [2.0, 2.0, 2.0], [3.0, 5.0, 7.0, 9.0])
@njit
def gradient_1d(y):
    """First and second differences."""
    return np.diff(y), np.diff(y, 2), np.diff(y, n=1)


# check: stack_features(np.array([1.0, 2.0]), np.array([3.0, 4.0]), np.array([5.0, 6.0])) -> ([[1.0, 1.0, 3.0], [1.0, 2.0, 4.0]], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [1.0, 2.0, 3.0, 4.0], [[1.0, 2.0], [5.0, 6.0]], [[1.0, 5.0], [2.0, 6.0]])
@njit
def stack_features(a, b, c):
    """Build a design matrix from columns and a bias column."""
    X = np.column_stack((np.ones(a.shape[0]), a, b))
    return X, np.vstack((a, b, c)), np.hstack((a, b)), np.stack((a, c)), np.stack((a, c), axis=1)


# check: least_squares_normal(np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]]), np.array([1.0, 3.0, 5.0])) -> ([[3.0, 3.0], [3.0, 5.0]], [9.0, 13.0], 1.0, 2.0)
@njit
def least_squares_normal(X, y):
    """Normal equations X^T X and X^T y with @, solved by hand for 2 unknowns."""
    A = X.T @ X
    b = X.T @ y
    det = A[0, 0] * A[1, 1] - A[0, 1] * A[1, 0]
    c0 = (A[1, 1] * b[0] - A[0, 1] * b[1]) / det
    c1 = (A[0, 0] * b[1] - A[1, 0] * b[0]) / det
    return A, b, c0, c1


# check: unit_vectors(np.array([[3.0, 4.0], [0.0, 2.0], [1.0, 1.0]])) -> [[0.6, 0.8], [0.0, 1.0], [0.7071067811865475, 0.7071067811865475]]
@njit
def unit_vectors(v):
    """Each row divided by its norm."""
    out = np.empty_like(v)
    for i in range(v.shape[0]):
        out[i] = v[i] / np.linalg.norm(v[i])
    return out


# check: converged(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0000000001, 3.0])) -> (True, [True, True, True])
# check: converged(np.array([1.0, 2.0]), np.array([1.0, 2.1])) -> (False, [True, False])
@njit
def converged(a, b):
    """Fixed-point iteration stop test."""
    return np.allclose(a, b), np.isclose(a, b)


# check: monte_carlo_pi(1000) -> 3.172
@njit
def monte_carlo_pi(n):
    """Seeded Monte Carlo estimate of pi."""
    np.random.seed(42)
    hits = 0
    for _ in range(n):
        x = np.random.random()
        y = np.random.random()
        if x * x + y * y <= 1.0:
            hits += 1
    return 4.0 * hits / n


# check: random_walk(5) -> [-1, 0, -1, 0, 1]
@njit
def random_walk(n):
    """Seeded +-1 random walk positions."""
    np.random.seed(7)
    steps = np.where(np.random.random(n) < 0.5, -1, 1)
    return np.cumsum(steps)


# ---------------------------------------------------------------- per-feature probes


# check: where_forms(np.array([1.0, -2.0, 0.0, 3.0]), np.array([10.0, 20.0, 30.0, 40.0])) -> ([1.0, 20.0, 30.0, 3.0], [1.0, 0.0, 0.0, 3.0], [1, 1, -1, 1], [0, 3])
@njit
def where_forms(a, b):
    """where with three arrays, with scalars, and with one argument (nonzero)."""
    (idx,) = np.where(a > 0)
    return np.where(a > 0, a, b), np.where(a < 0, 0.0, a), np.where(a != 0, 1, -1), idx


# check: where_2d(np.array([[1, 0], [0, 4]])) -> ([0, 1], [0, 1], [[1, 8], [7, 4]])
@njit
def where_2d(m):
    """where on a 2-D condition; broadcasting a row."""
    r, c = np.where(m > 0)
    return r, c, np.where(m > 0, m, np.array([7, 8]))


# check: nonzero_forms(np.array([0.0, 1.5, 0.0, -2.0]), np.array([[1, 0, 2], [0, 0, 3]])) -> ([1, 3], [0, 0, 1], [0, 2, 2], [0, 2, 5], [[0, 0], [0, 2], [1, 2]])
@njit
def nonzero_forms(a, m):
    """np.nonzero and np.flatnonzero, np.argwhere."""
    (i,) = np.nonzero(a)
    r, c = np.nonzero(m)
    return i, r, c, np.flatnonzero(m), np.argwhere(m)


# check: clip_forms(np.array([-5, 0, 3, 9]), np.array([-1.5, 0.5, 2.5])) -> ([0, 0, 3, 5], [-1.0, 0.5, 1.0], [0, 1, 3, 8], [0.0, 0.5, 2.0])
@njit
def clip_forms(a, f):
    """clip of ints and floats, with array bounds and the method form."""
    return np.clip(a, 0, 5), np.clip(f, -1.0, 1.0), np.clip(a, np.array([0, 1, 2, 3]), 8), f.clip(0.0, 2.0)


# check: sort_forms(np.array([3.0, 1.0, np.nan, 2.0, 1.0])) -> ([1.0, 1.0, 2.0, 3.0, math.nan], [1, 4, 3, 0, 2], [1, 4, 3, 0, 2], [3.0, 1.0, math.nan, 2.0, 1.0])
@njit
def sort_forms(a):
    """np.sort (a copy, nan last), argsort quicksort and mergesort (stable on ties)."""
    return np.sort(a), np.argsort(a), np.argsort(a, kind='mergesort'), a


# check: sort_int_2d(np.array([[3, 1, 2], [9, 7, 8]]), np.array([2, 1, 2, 1, 0])) -> ([[1, 2, 3], [7, 8, 9]], [4, 1, 3, 0, 2])
@njit
def sort_int_2d(m, k):
    """np.sort of a 2-D array sorts each row; stable argsort of ints with ties."""
    return np.sort(m), np.argsort(k, kind='mergesort')


# check: searchsorted_forms(np.array([1.0, 2.0, 2.0, 3.0]), np.array([0.0, 2.0, 2.5, 9.0])) -> ([0, 1, 3, 4], [0, 1, 3, 4], [0, 3, 3, 4], 1, 3)
@njit
def searchsorted_forms(a, v):
    """searchsorted left and right, array and scalar values."""
    return np.searchsorted(a, v), np.searchsorted(a, v, side='left'), np.searchsorted(a, v, side='right'), np.searchsorted(a, 2.0), np.searchsorted(a, 2.0, side='right')


# check: unique_forms(np.array([3.0, 1.0, 3.0, 2.0, 1.0]), np.array([[2, 2], [1, 5]])) -> ([1.0, 2.0, 3.0], [1, 2, 5])
@njit
def unique_forms(a, m):
    """unique sorts; on 2-D it flattens."""
    return np.unique(a), np.unique(m)


# check: concat_forms(np.array([1, 2]), np.array([3]), np.array([[1.0, 2.0]]), np.array([[3.0, 4.0], [5.0, 6.0]])) -> ([1, 2, 3, 1, 2], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[3.0, 4.0, 3.0, 4.0], [5.0, 6.0, 5.0, 6.0]], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[3.0, 4.0, 3.0, 4.0], [5.0, 6.0, 5.0, 6.0]])
@njit
def concat_forms(a, b, m, n):
    """concatenate 1-D, and 2-D along each axis; vstack of 2-D; hstack of 2-D."""
    return np.concatenate((a, b, a)), np.concatenate((m, n)), np.concatenate((n, n), axis=1), np.vstack((m, n)), np.hstack((n, n))


# check: concat_promote(np.array([1, 2]), np.array([0.5])) -> [1.0, 2.0, 0.5]
@njit
def concat_promote(a, b):
    """concatenate of int and float arrays gives floats."""
    return np.concatenate((a, b))


# check: diff_2d(np.array([[1, 4, 9], [2, 2, 5]])) -> [[3, 5], [0, 3]]
@njit
def diff_2d(m):
    """diff runs along the last axis."""
    return np.diff(m)


# check: interp_forms(np.array([1.0, 2.0, 3.0]), np.array([3.0, 2.0, 0.0])) -> (1.0, [3.0, 2.0, 0.0], 3.0, 0.0)
@njit
def interp_forms(xp, fp):
    """interp with a scalar x and at the knots."""
    return np.interp(2.5, xp, fp), np.interp(xp, xp, fp), np.interp(0.0, xp, fp), np.interp(4.0, xp, fp)


# check: bincount_forms(np.array([0, 1, 1, 3]), np.array([0.5, 1.0, 2.0, 0.25])) -> ([1, 2, 0, 1], [0.5, 3.0, 0.0, 0.25], [1, 2, 0, 1, 0, 0])
@njit
def bincount_forms(x, w):
    """bincount with weights and with minlength."""
    return np.bincount(x), np.bincount(x, w), np.bincount(x, minlength=6)


# check: histogram_forms(np.array([0.0, 0.5, 1.0, 1.5, 2.0, 2.0, 3.5])) -> ([2, 2, 2, 1], [0.0, 0.875, 1.75, 2.625, 3.5], [2, 4], [0.0, 1.0, 2.0], [2, 5])
@njit
def histogram_forms(x):
    """histogram with a bin count, a range, and explicit edges (last edge inclusive)."""
    h1, e1 = np.histogram(x, 4)
    h2, e2 = np.histogram(x, 2, (0.0, 2.0))
    h3, e3 = np.histogram(x, np.array([0.0, 1.0, 3.5]))
    return h1, e1, h2, e2, h3


# check: close_forms(np.array([1.0, np.nan, np.inf, 1e-10]), np.array([1.0000001, np.nan, np.inf, 0.0])) -> ([True, False, True, True], [True, False, True, True], [True, True, True, True], False, True, [True, False, True, False])
@njit
def close_forms(a, b):
    """isclose/allclose defaults, with rtol/atol, and equal_nan."""
    return np.isclose(a, b), np.isclose(a, b, rtol=1e-3), np.isclose(a, b, equal_nan=True), np.allclose(a, b), np.allclose(a, b, equal_nan=True), np.isclose(a, b, atol=0.0)


# check: dot_forms(np.array([1.0, 2.0, 3.0]), np.array([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]])) -> (14.0, 14.0, [7.0, -1.0], [7.0, -1.0], [[5.0, -2.0], [-2.0, 2.0]], [[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [2.0, -1.0, 5.0]], 14.0, [[1.0, -1.0], [2.0, -2.0], [3.0, -3.0]])
@njit
def dot_forms(v, m):
    """dot and @ for vector.vector, matrix.vector, matrix.matrix; vdot; outer."""
    return np.dot(v, v), v @ v, m @ v, np.dot(m, v), m @ m.T, np.dot(m.T, m), np.vdot(v, v), np.outer(v, np.array([1.0, -1.0]))


# check: dot_int(np.array([1, 2, 3]), np.array([4, 5, 6])) -> ([[4, 5, 6], [8, 10, 12], [12, 15, 18]], 32.0)
@njit
def dot_int(a, b):
    """outer of ints stays int; dot (BLAS) needs floats under Numba, so cast first."""
    return np.outer(a, b), np.dot(a.astype(np.float64), b.astype(np.float64))


# check: norm_forms(np.array([3.0, -4.0]), np.array([[1.0, 2.0], [3.0, 4.0]])) -> (5.0, 7.0, 4.0, 5.477225575051661, 6.0)
@njit
def norm_forms(v, m):
    """linalg.norm of a vector (2, 1, inf orders) and of a matrix (Frobenius)."""
    return np.linalg.norm(v), np.linalg.norm(v, 1), np.linalg.norm(v, np.inf), np.linalg.norm(m), np.linalg.norm(m, 1)


# check: trace_forms(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), np.array([[1.5, 2.0], [0.5, -1.0]])) -> (0.5, 15.0, [1, 5, 9], [[1.0, 0.0], [0.0, 2.0]])
@njit
def trace_forms(m, f):
    """trace of a float matrix (Numba has no int trace); np.diag of a matrix and a vector."""
    return np.trace(f), np.trace(m.astype(np.float64)), np.diag(m), np.diag(np.array([1.0, 2.0]))


# check: cross_forms(np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])) -> ([0.0, 0.0, 1.0], [0.0, 0.0, -1.0], [[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]])
@njit
def cross_forms(a, b):
    """cross product of 3-vectors, and of rows of 2-D arrays."""
    rows = np.vstack((a, b))
    return np.cross(a, b), np.cross(b, a), np.cross(rows, rows[::-1])


# check: random_draws() -> (0.3745401188473625, [0.9507143064099162, 0.7319939418114051, 0.5986584841970366], [-0.23415337472333597, -0.23413695694918055], 13.158425631014783, -0.9588310114083951, 1, [87, 29, 37, 1])
@njit
def random_draws():
    """A few draws from each generator after seeding."""
    np.random.seed(42)
    r = np.random.random()
    ra = np.random.rand(3)
    rn = np.random.randn(2)
    no = np.random.normal(10.0, 2.0)
    un = np.random.uniform(-1.0, 1.0)
    ri = np.random.randint(0, 10)
    ria = np.random.randint(0, 100, 4)
    return r, ra, rn, no, un, ri, ria


# check: random_arrays() -> ([1.6243453636632417, -0.6117564136500754, -0.5281717522634557], [3.9676747423066994, 5.3881673400335695], [[0.4191945144032948, 0.6852195003967595], [0.20445224973151743, 0.8781174363909454]])
@njit
def random_arrays():
    """Array forms of normal, uniform and random with a size."""
    np.random.seed(1)
    return np.random.normal(0.0, 1.0, 3), np.random.uniform(0.0, 10.0, 2), np.random.random((2, 2))


# check: random_perm(np.array([1, 2, 3, 4, 5])) -> ([4, 5, 2, 1, 3], [2, 1, 3, 4, 0], [1, 5, 2, 3, 4], 3, [1, 5, 5])
@njit
def random_perm(a):
    """shuffle in place on a copy, permutation of n and of an array, choice."""
    np.random.seed(3)
    b = a.copy()
    np.random.shuffle(b)
    p = np.random.permutation(5)
    q = np.random.permutation(a)
    c = np.random.choice(a)
    cs = np.random.choice(a, 3)
    return b, p, q, c, cs


# check: random_reseed() -> ([0.22199317108973948, 0.8707323061773764], [0.22199317108973948, 0.8707323061773764], True)
@njit
def random_reseed():
    """Seeding again repeats the stream."""
    np.random.seed(5)
    x = np.random.random(2)
    np.random.seed(5)
    y = np.random.random(2)
    return x, y, np.all(x == y)


# ---------------------------------------------------------------- errors


# check: interp_mismatch(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0])) raises ValueError: fp and xp are not of the same size.
@njit
def interp_mismatch(xp, fp):
    """xp and fp of different lengths."""
    return np.interp(1.5, xp, fp)


# check: bincount_negative(np.array([0, -1, 2])) raises ValueError: bincount(): first argument must be non-negative
@njit
def bincount_negative(x):
    """bincount of a negative value."""
    return np.bincount(x)


# check: concat_bad(np.zeros((2, 2)), np.zeros((2, 3))) raises ValueError: np.concatenate(): input sizes over dimension 1 do not match
@njit
def concat_bad(a, b):
    """concatenate along axis 0 with different row lengths."""
    return np.concatenate((a, b))


# check: dot_bad(np.zeros(3), np.zeros(2)) raises ValueError: incompatible array sizes for np.dot(a, b) (vector * vector)
@njit
def dot_bad(a, b):
    """dot of vectors of different lengths."""
    return np.dot(a, b)


# check: matmul_bad(np.zeros((2, 3)), np.zeros((2, 3))) raises ValueError: incompatible array sizes for np.dot(a, b) (matrix * matrix)
@njit
def matmul_bad(a, b):
    """@ of (2, 3) by (2, 3)."""
    return a @ b


# check: randint_bad(5, 5) raises ValueError: empty range for randrange()
@njit
def randint_bad(lo, hi):
    """randint with an empty range."""
    np.random.seed(0)
    return np.random.randint(lo, hi)


# check: choice_empty(np.zeros(0)) raises ValueError: empty range for randrange()
@njit
def choice_empty(a):
    """choice from an empty array."""
    return np.random.choice(a)


# argsort of keys with many ties (scores, bucket ids): the permutation is Numba's quicksort's,
# tie for tie; kind='mergesort' is stable.
# check: rank_buckets(np.array([3, 1, 2, 3, 1, 2, 3, 1, 2, 0, 0, 3, 1, 2, 3, 1, 2, 3, 1, 2, 0, 0, 5, 4, 4, 5])) -> ([21, 20, 9, 10, 12, 1, 15, 4, 7, 18, 13, 8, 16, 5, 2, 19, 17, 0, 11, 6, 3, 14, 23, 24, 25, 22], [9, 10, 20, 21, 1, 4, 7, 12, 15, 18, 2, 5, 8, 13, 16, 19, 0, 3, 6, 11, 14, 17, 23, 24, 22, 25], [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 5, 5])
# check: rank_buckets(np.array([2.0, 1.0, 2.0, np.nan, 1.0, -0.0, 0.0, 2.0, 1.0, 2.0, 1.0, 0.0, -0.0, 2.0, 1.0, np.nan, 2.0, 1.0, 0.5])) -> ([5, 6, 11, 12, 18, 1, 17, 4, 14, 8, 10, 16, 13, 0, 7, 2, 9, 15, 3], [5, 6, 11, 12, 18, 1, 4, 8, 10, 14, 17, 0, 2, 7, 9, 13, 16, 3, 15], [-0.0, 0.0, 0.0, -0.0, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, math.nan, math.nan])
# check: rank_buckets(np.array([2.0, 1.0, 2.0, np.nan, 1.0, -0.0, 0.0, 2.0, 1.0, 2.0, 1.0, 0.0, -0.0, 2.0, -np.inf, 1.0, np.nan, 2.0, 1.0, 0.5], dtype=np.float32)) -> ([14, 5, 6, 11, 12, 19, 1, 18, 4, 15, 8, 10, 17, 0, 9, 7, 2, 13, 16, 3], [14, 5, 6, 11, 12, 19, 1, 4, 8, 10, 15, 18, 0, 2, 7, 9, 13, 17, 3, 16], [-math.inf, -0.0, 0.0, 0.0, -0.0, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, math.nan, math.nan])
# check: rank_buckets(np.array([7])) -> ([0], [0], [7])
@njit
def rank_buckets(keys):
    return np.argsort(keys), keys.argsort(kind='mergesort'), np.sort(keys)


# A large argsort with ties, summarised: the permutation's weighted checksum.
# check: tie_checksum(1000, 13) -> (249429303, 0.0, 6.0, 12.0)
# check: tie_checksum(777, 2) -> (110133374, 0.0, 0.0, 1.0)
@njit
def tie_checksum(n, m):
    x = np.empty(n)
    for i in range(n):
        x[i] = (i * 7919) % m
    p = np.argsort(x)
    s = 0
    for i in range(n):
        s += i * p[i]
    q = np.sort(x)
    return s, q[0], q[n // 2], q[n - 1]


# Sampling without replacement (a permutation's head, as Numba draws it) and with it, from an
# array and from range(n); asking for more than the population is a ValueError.
# check: draw_sample(7, np.array([10.0, 20.0, 30.0, 40.0, 50.0]), 3, False) -> ([10.0, 40.0, 30.0], [[9, 6], [2, 5]], [30.0, 10.0], 3)
# check: draw_sample(7, np.array([10.0, 20.0, 30.0, 40.0, 50.0]), 3, True) -> ([50.0, 20.0, 40.0], [[9, 6], [2, 5]], [30.0, 10.0], 3)
# check: draw_sample(3, np.array([10.0, 20.0]), 3, False) raises ValueError: Cannot take a larger sample than population when 'replace=False'
@njit
def draw_sample(seed, pop, k, replace):
    np.random.seed(seed)
    a = np.random.choice(pop, k, replace=replace)
    b = np.random.choice(10, (2, 2), replace=False)
    c = np.random.choice(pop, size=2, replace=True)
    return a, b, c, np.random.choice(4, replace=False)
