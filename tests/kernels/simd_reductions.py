"""Reductions the host runs several iterations at a time (issue 16's SIMD): integer sums,
products and bitwise folds always (they wrap, so any order gives the same bits), float sums and
products only in a `fastmath=True` function (reassociation is what fastmath allows). Each
length crosses the vector loop's boundaries: empty, shorter than a vector, one vector, the
four-vector unrolled loop, and a tail of one to three elements after it."""
import numpy as np
from numba import njit


# check: int_sum(np.arange(0)) -> 0
# check: int_sum(np.arange(1)) -> 0
# check: int_sum(np.arange(3)) -> 3
# check: int_sum(np.arange(8)) -> 28
# check: int_sum(np.arange(11)) -> 55
# check: int_sum(np.arange(-50, 37, 1)) -> -609
@njit
def int_sum(a):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s


# A start that is not the identity, and a sum that wraps around int64.
# check: offset_sum(np.array([9223372036854775807, 1, 2, 3, 4, 5, 6, 7, 8, 9]), 100) -> -9223372036854775664
@njit
def offset_sum(a, start):
    s = start
    for i in range(len(a)):
        s += a[i]
    return s


# Several reductions in one loop, from one load each: `s - x`, a product that wraps, the
# bitwise folds.
# check: folds(np.array([3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27], dtype=np.int64)) -> (805, 8279680025243451537, 3, 124, -31)
# check: folds(np.array([-1, 2, -4, 8, -16], dtype=np.int64)) -> (1011, -248832, -7, -4, 1)
# check: folds(np.array([6], dtype=np.int64)) -> (994, 18, 6, 24, -7)
@njit
def folds(a):
    d = 1000
    p = 1
    x = 0
    o = 0
    n = -1
    for i in range(a.size):
        v = a[i]
        d -= v
        p *= v * 3
        x ^= v
        o |= v * 4
        n &= ~v | 1
    return d, p, x, o, n


# A reduction of an expression of two arrays and a loop-invariant scale.
# check: int_dot(np.arange(1, 14), np.arange(20, 7, -1), 3) -> 2106
@njit
def int_dot(a, b, k):
    s = 0
    for i in range(a.shape[0]):
        s += (a[i] * b[i] - k) * 2
    return s


# A reduction and an elementwise store in one loop.
# check: scaled_total(np.arange(10), 4) -> ([0, 4, 8, 12, 16, 20, 24, 28, 32, 36], 180)
@njit
def scaled_total(a, k):
    out = np.empty_like(a)
    t = 0
    for i in range(a.shape[0]):
        y = a[i] * k
        out[i] = y
        t += y
    return out, t


# fastmath: float sums and products reassociate. The inputs are small integers and powers
# of two, so every order gives the same bits.
# check: fm_sum(np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0])) -> 78.0
# check: fm_sum(np.array([0.5])) -> 0.5
# check: fm_sum(np.zeros(0)) -> 0.0
@njit(fastmath=True)
def fm_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


# check: fm_dot32(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0], dtype=np.float32), np.array([9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0], dtype=np.float32)) -> 165.0
@njit(fastmath=True)
def fm_dot32(a, b):
    s = np.float32(0.0)
    for i in range(len(a)):
        s += a[i] * b[i]
    return s


# check: fm_prod_sub(np.array([2.0, 0.5, 4.0, 0.25, 2.0, 2.0, 0.5, 8.0, 1.0])) -> (48.0, 79.75)
@njit(fastmath=True)
def fm_prod_sub(a):
    p = 3.0
    d = 100.0
    for i in range(a.shape[0]):
        p *= a[i]
        d -= a[i]
    return p, d


# Without fastmath the float sum keeps its order (a scalar loop): 1e16 + 1.0 + ... loses
# every 1.0 in this order, which a reassociated sum would not.
# check: ordered_sum(np.array([1e16, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -1e16])) -> 0.0
@njit
def ordered_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


# A reduction that reads a row of a 2-D array per outer iteration.
# check: row_sums(np.arange(35).reshape(5, 7)) -> [21, 70, 119, 168, 217]
@njit
def row_sums(m):
    out = np.zeros(m.shape[0], dtype=np.int64)
    for r in range(m.shape[0]):
        s = 0
        for c in range(m.shape[1]):
            s += m[r, c]
        out[r] = s
    return out


# NumPy's reductions of integer arrays run the same vector loop.
# check: np_int_reductions(np.arange(-7, 12)) -> (38, 38, 362880, 589)
# check: np_int_reductions(np.array([3, 1, 2], dtype=np.int64)) -> (6, 6, 990, 5)
@njit
def np_int_reductions(a):
    return np.sum(a), a.sum(), np.prod(a[:9] + 8), np.sum(a * a - 3)


# check: fm_np_sum(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0])) -> 132.0
@njit(fastmath=True)
def fm_np_sum(a):
    return np.sum(a) + a.sum()


# Conditional reductions (what `if_convert` makes of an `if` around the update: a select of
# the updated and the old value): a count of elements above a threshold, a sum of the positive
# ones, on float64 lanes with an int64 count.
# check: count_above(np.array([0.5, 2.0, -1.0, 3.5, 3.0, 7.25, 0.0, 9.0, 2.5]), 2.0) -> 5
# check: count_above(np.array([1.0]), 0.0) -> 1
# check: count_above(np.zeros(0), 0.0) -> 0
@njit
def count_above(a, t):
    c = 0
    for i in range(a.shape[0]):
        if a[i] > t:
            c += 1
    return c


# check: int_positive_sum(np.array([3, -4, 5, -6, 7, 0, 9, -11, 13, 2, -1], dtype=np.int64)) -> 39
@njit
def int_positive_sum(a):
    s = 0
    for i in range(a.shape[0]):
        if a[i] > 0:
            s += a[i]
    return s


# check: fm_masked_sum(np.array([1.5, -2.0, 2.5, np.nan, 4.0, -0.5, 8.0]), 0.0) -> 16.0
@njit(fastmath=True)
def fm_masked_sum(a, lo):
    s = 0.0
    for i in range(len(a)):
        if a[i] > lo:
            s += a[i]
    return s
