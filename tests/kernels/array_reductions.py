"""NumPy reductions and array methods: sum prod min max mean std var argmin argmax all any
cumsum cumprod as functions and methods, axis=, the nan* forms, median percentile quantile,
reductions of empty arrays, NaN rules, integer dtypes of results, and the methods astype fill
item nonzero sort argsort dot and flat. (a.dot goes through BLAS: Numba needs scipy installed.)"""
import numpy as np
from numba import njit


# ---------------------------------------------------------------- realistic kernels


# check: zscore(np.array([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])) -> [-1.5, -0.5, -0.5, -0.5, 0.0, 0.0, 1.0, 2.0]
@njit
def zscore(x):
    """Standard scores with the population std."""
    return (x - x.mean()) / x.std()


# check: column_means(np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]])) -> ([3.0, 6.0], [3.0, 9.0, 15.0])
@njit
def column_means(m):
    """Column means and row sums of a 2-D array."""
    return np.sum(m, axis=0) / m.shape[0], m.sum(axis=1)


# check: weighted_mean(np.array([1.0, 2.0, 3.0]), np.array([3.0, 1.0, 0.0])) -> 1.25
@njit
def weighted_mean(x, w):
    """sum(w * x) / sum(w)."""
    return np.sum(w * x) / np.sum(w)


# check: rms_error(np.array([1.0, 2.0, 3.0]), np.array([1.5, 2.0, 2.0])) -> (0.6454972243679028, 1.0)
@njit
def rms_error(pred, obs):
    """Root mean square and max absolute error."""
    d = pred - obs
    return np.sqrt(np.mean(d * d)), np.max(np.abs(d))


# check: normalize_probs(np.array([1, 3, 4])) -> ([0.125, 0.375, 0.5], [0.125, 0.5, 1.0])
@njit
def normalize_probs(counts):
    """Int counts to probabilities and their cumulative distribution."""
    p = counts / counts.sum()
    return p, np.cumsum(p)


# check: best_index(np.array([3.0, 9.0, 1.0, 9.0, -2.0])) -> (1, 4, 1, 4)
@njit
def best_index(scores):
    """Positions of the best and worst score (first one on ties)."""
    return np.argmax(scores), np.argmin(scores), scores.argmax(), scores.argmin()


# check: robust_center(np.array([1.0, 2.0, 100.0, 3.0, 4.0])) -> (3.0, 2.0)
# check: robust_center(np.array([5.0, 1.0, 3.0, 2.0])) -> (2.5, 1.75)
@njit
def robust_center(x):
    """Median and interquartile range."""
    q1 = np.percentile(x, 25.0)
    q3 = np.percentile(x, 75.0)
    return np.median(x), q3 - q1


# check: sensor_stats(np.array([1.0, np.nan, 3.0, 8.0, np.nan])) -> (12.0, 4.0, 1.0, 8.0, 2.943920288775949)
@njit
def sensor_stats(x):
    """Statistics that skip missing values."""
    return np.nansum(x), np.nanmean(x), np.nanmin(x), np.nanmax(x), np.nanstd(x)


# check: top_k(np.array([5.0, 1.0, 4.0, 2.0, 3.0]), 2) -> [0, 2]
@njit
def top_k(x, k):
    """Indices of the k largest values, largest first, via argsort."""
    order = np.argsort(x)
    return order[::-1][:k]


# check: survival(np.array([0.9, 0.8, 0.5])) -> ([0.9, 0.7200000000000001, 0.36000000000000004], 0.36000000000000004)
@njit
def survival(p):
    """Cumulative survival probability with cumprod."""
    return np.cumprod(p), p.cumprod()[-1]


# check: trace_flat(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])) -> (15, 45)
@njit
def trace_flat(m):
    """Diagonal sum with indexing, total with a.flat iteration."""
    t = 0
    for i in range(m.shape[0]):
        t += m[i, i]
    total = 0
    for v in m.flat:
        total += v
    return t, total


# ---------------------------------------------------------------- per-feature probes


# check: reduce_float(np.array([1.5, -2.0, 4.0, 0.5])) -> (4.0, -6.0, -2.0, 4.0, 1.0, 2.1505813167606567, 4.625, -2.0, 4.0)
@njit
def reduce_float(a):
    """np.X(a) over a float array."""
    return np.sum(a), np.prod(a), np.min(a), np.max(a), np.mean(a), np.std(a), np.var(a), np.amin(a), np.amax(a)


# check: reduce_methods(np.array([1.5, -2.0, 4.0, 0.5])) -> (4.0, -6.0, -2.0, 4.0, 1.0, 2.1505813167606567, 4.625)
@njit
def reduce_methods(a):
    """The same reductions as methods."""
    return a.sum(), a.prod(), a.min(), a.max(), a.mean(), a.std(), a.var()


# check: reduce_int(np.array([3, -1, 4, 1, 5])) -> (12, -60, -1, 5, 2.4, 2.1540659228538015, 4.64)
@njit
def reduce_int(a):
    """Int arrays: sum prod min max stay ints; mean std var are floats."""
    return a.sum(), a.prod(), a.min(), a.max(), a.mean(), a.std(), a.var()


# check: reduce_int32(np.array([1073741824, 1073741824, 1], dtype=np.int32)) -> (2147483649, 2147483649, 8, 1073741824)
@njit
def reduce_int32(a):
    """The sum of an int32 array is an int64 (no wrap); cumsum's dtype too."""
    c = np.cumsum(a)
    return np.sum(a), c[-1], c.itemsize, a.max()


# check: reduce_float32(np.array([0.1, 0.2, 0.7], dtype=np.float32)) -> (1.0, 0.3333333432674408, 0.699999988079071)
@njit
def reduce_float32(a):
    """float32 sums and means."""
    return np.sum(a), np.mean(a), np.max(a)


# check: reduce_bool(np.array([True, False, True, True])) -> (3, False, True, False, True)
@njit
def reduce_bool(a):
    """Sum of a bool array counts the True values; all and any."""
    return np.sum(a), np.all(a), np.any(a), a.all(), a.any()


# check: all_any(np.array([0.0, 1.0, 2.0]), np.array([0, 0])) -> (False, True, False, False, True)
@njit
def all_any(a, b):
    """all and any on numbers: nonzero is true."""
    return np.all(a), np.any(a), np.all(b), np.any(b), np.all(a >= 0.0)


# check: reduce_2d(np.array([[1, 5, 2], [4, 0, 6]])) -> (18, 0, 6, 5, 4, 3.0)
@njit
def reduce_2d(m):
    """Whole-array reductions of a 2-D array; argmax is a flat index."""
    return m.sum(), m.min(), m.max(), np.argmax(m), np.argmin(m), m.mean()


# check: reduce_axis(np.array([[1.0, 5.0, 2.0], [4.0, 0.0, 6.0]])) -> ([5.0, 5.0, 8.0], [8.0, 10.0], [5.0, 5.0, 8.0], [5.0, 5.0, 8.0])
@njit
def reduce_axis(m):
    """sum over each axis, function and method."""
    return np.sum(m, axis=0), np.sum(m, axis=1), m.sum(axis=0), m.sum(0)


# check: reduce_axis_3d(np.arange(24).reshape(2, 3, 4)) -> ([[12, 14, 16, 18], [20, 22, 24, 26], [28, 30, 32, 34]], [[12, 15, 18, 21], [48, 51, 54, 57]], [[6, 22, 38], [54, 70, 86]])
@njit
def reduce_axis_3d(t):
    """sum over each axis of a 3-D array."""
    return np.sum(t, axis=0), np.sum(t, axis=1), np.sum(t, axis=2)


# check: reduce_axis_more(np.array([[1.0, 5.0, 2.0], [4.0, 0.0, 6.0]])) -> ([1, 2], [0, 1, 0], [[1.0, 5.0, 2.0], [5.0, 5.0, 8.0]], [8.0, 10.0], 18, 6.0, 3.0, 1.6)
@njit
def reduce_axis_more(m):
    """The other axis= forms Numba has (argmax/argmin/cumsum, a negative axis, sum with
    dtype=); mean/max/min/prod/std take no axis under Numba. Also ptp and average."""
    return np.argmax(m, axis=1), m.argmin(axis=0), np.cumsum(m, axis=0), np.sum(m, axis=-1), np.sum(m, dtype=np.int64), np.ptp(m), np.average(m), np.average(m[0], weights=m[1])


# check: reduce_view(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])) -> (7.0, [6.0, 15.0], 72.0)
@njit
def reduce_view(m):
    """Reductions of non-contiguous views."""
    return m[:, 1].sum(), m.T.sum(axis=0), m[::-1, ::2].prod()


# check: cumulative(np.array([1, 2, 3, 4]), np.array([[1.0, 2.0], [3.0, 4.0]])) -> ([1, 3, 6, 10], [1, 3, 6, 10], [1, 2, 6, 24], [1.0, 3.0, 6.0, 10.0], [1.0, 2.0, 6.0, 24.0])
@njit
def cumulative(a, m):
    """cumsum and cumprod; on 2-D they run over the flattened array."""
    return np.cumsum(a), a.cumsum(), np.cumprod(a), m.cumsum(), np.cumprod(m)


# check: nan_rules(np.array([1.0, np.nan, -3.0])) -> (math.nan, math.nan, math.nan, math.nan, 1, 1)
@njit
def nan_rules(a):
    """nan propagates through sum mean min max; argmax/argmin find it."""
    return np.sum(a), np.mean(a), np.min(a), np.max(a), np.argmax(a), np.argmin(a)


# check: nan_funcs(np.array([[1.0, np.nan], [np.nan, 4.0]])) -> (5.0, 4.0, 2.5, 2.25, 2.5)
@njit
def nan_funcs(m):
    """The nan* reductions on a 2-D array, and nanprod nanvar nanmedian."""
    return np.nansum(m), np.nanprod(m), np.nanmean(m), np.nanvar(m), np.nanmedian(m)


# check: nan_all_nan(np.array([np.nan, np.nan])) -> (0.0, 1.0, math.nan, math.nan, math.nan)
@njit
def nan_all_nan(a):
    """nan* of an all-nan array: nansum is 0, nanmean and nanmin are nan."""
    return np.nansum(a), np.nanprod(a), np.nanmean(a), np.nanmin(a), np.nanmax(a)


# check: nan_int(np.array([1, 2, 3])) -> (6, 1, 3, 2.0)
@njit
def nan_int(a):
    """nan* on int arrays: the plain reductions."""
    return np.nansum(a), np.nanmin(a), np.nanmax(a), np.nanmean(a)


# check: order_stats(np.array([7.0, 1.0, 3.0, 5.0])) -> (4.0, 1.6, 4.0, [1.0, 4.0, 7.0], [2.5, 5.5])
@njit
def order_stats(a):
    """median (even length), percentile and quantile, scalar and array q."""
    return np.median(a), np.percentile(a, 10.0), np.quantile(a, 0.5), np.percentile(a, np.array([0.0, 50.0, 100.0])), np.quantile(a, np.array([0.25, 0.75]))


# check: order_stats_int(np.array([4, 1, 3])) -> (3.0, 3.0, 2.333333333333333)
@njit
def order_stats_int(a):
    """median and percentile of an int array are floats."""
    return np.median(a), np.percentile(a, 50), np.quantile(a, 1.0 / 3.0)


# check: median_nan(np.array([1.0, np.nan, 2.0])) -> (math.nan, 1.5, 1.5, 1.0)
@njit
def median_nan(a):
    """median with nan is nan; nanmedian and nanpercentile skip it."""
    return np.median(a), np.nanmedian(a), np.nanpercentile(a, 50.0), np.nanquantile(a, 0.0)


# check: empty_reductions(np.zeros(0)) -> (0.0, 1.0, math.nan, True, False)
@njit
def empty_reductions(a):
    """Empty reductions that have a value: sum 0, prod 1, mean nan, all true."""
    return np.sum(a), np.prod(a), np.mean(a), np.all(a), np.any(a)


# check: methods_cast(np.array([1.7, -2.5, 3.0])) -> ([1, -2, 3], [1.7000000476837158, -2.5, 3.0], 4, [True, True, True], [1.5, -1.5, 3.5])
@njit
def methods_cast(a):
    """astype to int (truncation), to float32, to bool."""
    i = a.astype(np.int64)
    f = a.astype(np.float32)
    b = a.astype(np.bool_)
    return i, f, f.itemsize, b, i.astype(np.float64) + 0.5


# check: methods_fill(np.zeros(4), 2.5) -> ([2.5, 2.5, 2.5, 2.5], [7, 7, 7])
@njit
def methods_fill(a, v):
    """fill on the argument and on a fresh int array."""
    a.fill(v)
    b = np.empty(3, dtype=np.int64)
    b.fill(7)
    return a, b


# check: methods_item(np.array([42.5]), np.array([[7]])) -> (42.5, 7)
@njit
def methods_item(a, m):
    """item() of one-element arrays."""
    return a.item(), m.item()


# check: methods_nonzero(np.array([0, 3, 0, -1, 5]), np.array([[0.0, 1.0], [2.0, 0.0]])) -> ([1, 3, 4], [0, 1], [1, 0], 3)
@njit
def methods_nonzero(a, m):
    """nonzero on 1-D and 2-D: a tuple of index arrays."""
    (i,) = a.nonzero()
    r, c = m.nonzero()
    return i, r, c, np.count_nonzero(a)


# check: methods_sort(np.array([3.0, -1.0, 2.0, np.nan, 0.5])) -> ([-1.0, 0.5, 2.0, 3.0, math.nan], [1, 4, 2, 0, 3])
@njit
def methods_sort(a):
    """a.sort() in place (nan last) and argsort of the original."""
    order = a.argsort()
    b = a.copy()
    b.sort()
    return b, order


# check: sort_in_place(np.array([5, 3, 9, 1, 3])) -> None ; arg0 == [1, 3, 3, 5, 9]
@njit
def sort_in_place(a):
    """a.sort() changes the argument."""
    a.sort()


# check: methods_dot(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])) -> (32.0, [32.0, 64.0, 96.0], 14.0)
@njit
def methods_dot(a, b):
    """a.dot(b) of vectors, of a matrix and a vector."""
    m = np.outer(a, b)
    return a.dot(b), m.dot(a), np.dot(a, a)


# check: flat_ops(np.array([[1, 2], [3, 4]])) -> ([1, 3, 2, 4], 4)
@njit
def flat_ops(m):
    """a.flat iteration on a C array and on a transposed view; flat indexing."""
    order = np.empty(4, dtype=np.int64)
    k = 0
    for v in m.T.flat:
        order[k] = v
        k += 1
    return order, m.flat[3]


# ---------------------------------------------------------------- errors


# check: min_empty(np.zeros(0)) raises ValueError: zero-size array to reduction operation minimum which has no identity
@njit
def min_empty(a):
    """min of an empty array."""
    return np.min(a)


# check: max_empty_method(np.zeros(0)) raises ValueError: zero-size array to reduction operation maximum which has no identity
@njit
def max_empty_method(a):
    """a.max() of an empty array."""
    return a.max()


# check: argmin_empty(np.zeros(0)) raises ValueError: attempt to get argmin of an empty sequence
@njit
def argmin_empty(a):
    """argmin of an empty array."""
    return np.argmin(a)


# check: median_empty(np.zeros(0)) -> math.nan
@njit
def median_empty(a):
    """median of an empty array is nan under Numba (no error)."""
    return np.median(a)


# check: percentile_bad(np.array([1.0, 2.0]), 150.0) raises ValueError: Percentiles must be in the range [0, 100]
@njit
def percentile_bad(a, q):
    """A percentile outside [0, 100]."""
    return np.percentile(a, q)


# check: quantile_bad(np.array([1.0, 2.0]), -0.5) raises ValueError: Quantiles must be in the range [0, 1]
@njit
def quantile_bad(a, q):
    """A quantile outside [0, 1]."""
    return np.quantile(a, q)


# check: item_bad(np.array([1.0, 2.0])) raises ValueError: item(): can only convert an array of size 1 to a Python scalar
@njit
def item_bad(a):
    """item() of an array of more than one element."""
    return a.item()
