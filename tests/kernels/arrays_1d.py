"""1-D array kernels: reads, writes, shape/size/ndim/len, in-place updates."""
import numpy as np
from numba import njit


# check: array_sum(np.array([1.0, 2.5, -0.5])) -> 3.0
# check: array_sum(np.zeros(0)) -> 0.0
# check: array_sum(np.arange(10, dtype=np.float64)) -> 45.0
@njit
def array_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


# check: int_sum(np.array([3, -4, 10])) -> 9
# check: int_sum(np.arange(20)) -> 190
# check: int_sum(np.array([5, 6], dtype=np.int32)) -> 11
# int32 elements accumulate in the int64 `s`: no 32-bit wraparound.
# check: int_sum(np.array([2147483647, 1], dtype=np.int32)) -> 2147483648
# check: int_sum(np.array([-5, 7, 100], dtype=np.int32)) -> 102
@njit
def int_sum(a):
    s = 0
    for i in range(len(a)):
        s += a[i]
    return s


# check: dot(np.array([1.0, 2.0, 3.0]), np.array([4.0, -5.0, 6.0])) -> 12.0
# check: dot(np.zeros(0), np.zeros(0)) -> 0.0
# check: dot(np.array([0.5, 0.25], dtype=np.float32), np.array([2.0, 4.0], dtype=np.float32)) -> 2.0
@njit
def dot(a, b):
    s = 0.0
    for i in range(a.size):
        s += a[i] * b[i]
    return s


# In-place inclusive prefix sum.
# check: prefix_sum(np.array([1, 2, 3, 4])) -> 10 ; arg0 == [1, 3, 6, 10]
# check: prefix_sum(np.array([5])) -> 5 ; arg0 == [5]
# check: prefix_sum(np.array([1.5, -0.5, 2.0])) -> 3.0 ; arg0 == [1.5, 1.0, 3.0]
@njit
def prefix_sum(a):
    for i in range(1, a.shape[0]):
        a[i] += a[i - 1]
    return a[a.shape[0] - 1]


# Histogram of values in [lo, hi) into nbins = len(counts) bins; out-of-range ignored.
# check: histogram(np.array([0.1, 0.2, 0.5, 0.9, 0.95, 1.5, -0.1]), 0.0, 1.0, np.zeros(4, dtype=np.int64)) -> 5 ; arg3 == [2, 0, 1, 2]
# check: histogram(np.zeros(0), 0.0, 1.0, np.zeros(2, dtype=np.int64)) -> 0 ; arg3 == [0, 0]
@njit
def histogram(x, lo, hi, counts):
    nbins = counts.shape[0]
    width = (hi - lo) / nbins
    used = 0
    for i in range(x.shape[0]):
        v = x[i]
        if v < lo or v >= hi:
            continue
        k = int((v - lo) / width)
        if k >= nbins:
            k = nbins - 1
        counts[k] += 1
        used += 1
    return used


# check: fill_count(np.array([0, 2, 2, 1, 2]), np.zeros(3, dtype=np.int64)) -> None ; arg1 == [1, 1, 3]
# check: fill_count(np.zeros(0, dtype=np.int64), np.ones(2, dtype=np.int64)) -> None ; arg1 == [1, 1]
@njit
def fill_count(keys, out):
    for i in range(keys.shape[0]):
        k = keys[i]
        out[k] += 1
    return None


# check: last_elem(np.array([4, 5, 6])) -> 6
# check: last_elem(np.array([9])) -> 9
@njit
def last_elem(a):
    return a[-1]


# check: neg_index_sum(np.array([1.0, 2.0, 3.0, 4.0])) -> 431.0
# check: neg_index_sum(np.array([7.0, 9.0])) -> 977.0
@njit
def neg_index_sum(a):
    return a[-1] * 100.0 + a[-2] * 10.0 + a[-len(a)]


# check: meta(np.zeros(7)) -> (7, 7, 1, 7)
# check: meta(np.zeros(0, dtype=np.int32)) -> (0, 0, 1, 0)
@njit
def meta(a):
    return a.shape[0], a.size, a.ndim, len(a)


# check: reverse_inplace(np.array([1, 2, 3, 4, 5])) -> None ; arg0 == [5, 4, 3, 2, 1]
# check: reverse_inplace(np.array([1.5, 2.5])) -> None ; arg0 == [2.5, 1.5]
# check: reverse_inplace(np.zeros(0)) -> None ; arg0 == []
@njit
def reverse_inplace(a):
    n = a.shape[0]
    for i in range(n // 2):
        a[i], a[n - 1 - i] = a[n - 1 - i], a[i]


# check: argmax(np.array([3.0, 9.0, -1.0, 9.0])) -> 1
# check: argmax(np.array([-5.0])) -> 0
# check: argmax(np.array([1, 7, 7, 2])) -> 1
@njit
def argmax(a):
    best = 0
    for i in range(1, a.shape[0]):
        if a[i] > a[best]:
            best = i
    return best


# check: scale_inplace(np.array([1.0, -2.0, 4.0]), 0.5) -> 3 ; arg0 == [0.5, -1.0, 2.0]
# check: scale_inplace(np.array([1.0, 2.0], dtype=np.float32), 3.0) -> 2 ; arg0 == [3.0, 6.0]
@njit
def scale_inplace(a, s):
    for i in range(a.shape[0]):
        a[i] *= s
    return a.shape[0]


# Every augmented operator on array elements.
# check: elem_aug_ops(np.array([10, 10, 10, 10, 10, 10, 10])) -> None ; arg0 == [13, 7, 30, 3, 1, 100, -10]
# check: elem_aug_ops(np.array([-7.0, -7.0, -7.0, -7.0, -7.0, -7.0, -7.0])) -> None ; arg0 == [-4.0, -10.0, -21.0, -3.0, 2.0, 49.0, 7.0]
@njit
def elem_aug_ops(a):
    a[0] += 3
    a[1] -= 3
    a[2] *= 3
    a[3] //= 3
    a[4] %= 3
    a[5] **= 2
    a[6] = -a[6]


# check: float_div_elems(np.array([1.0, 2.0, 3.0]), 4.0) -> None ; arg0 == [0.25, 0.5, 0.75]
# check: float_div_elems(np.array([1.0, -3.0]), -0.5) -> None ; arg0 == [-2.0, 6.0]
# check: float_div_elems(np.array([1.0, 2.0]), 0.0) raises ZeroDivisionError ; arg0 == [1.0, 2.0]
@njit
def float_div_elems(a, d):
    for i in range(a.shape[0]):
        a[i] /= d


# Store a float into an int array truncates toward zero.
# check: store_float_in_int(np.zeros(3, dtype=np.int64), 2.7) -> None ; arg0 == [2, 5, 8]
# check: store_float_in_int(np.zeros(3, dtype=np.int64), -2.7) -> None ; arg0 == [-2, -5, -8]
@njit
def store_float_in_int(out, x):
    for i in range(out.shape[0]):
        out[i] = x * (i + 1)


# check: bool_count(np.array([True, False, True, True], dtype=np.bool_)) -> 3
# check: bool_count(np.zeros(3, dtype=np.bool_)) -> 0
@njit
def bool_count(mask):
    c = 0
    for i in range(mask.shape[0]):
        if mask[i]:
            c += 1
    return c


# check: set_mask(np.array([1.0, -1.0, 0.0, 2.0]), np.zeros(4, dtype=np.bool_)) -> None ; arg1 == [True, False, False, True]
# check: set_mask(np.array([math.nan, -0.0, 1e-300]), np.ones(3, dtype=np.bool_)) -> None ; arg1 == [False, False, True]
@njit
def set_mask(x, mask):
    for i in range(x.shape[0]):
        mask[i] = x[i] > 0.0


# check: moving_avg3(np.array([1.0, 2.0, 3.0, 4.0, 10.0]), np.zeros(3)) -> None ; arg1 == [2.0, 3.0, 5.666666666666667]
# check: moving_avg3(np.array([3.0, 3.0, 3.0]), np.zeros(1)) -> None ; arg1 == [3.0]
@njit
def moving_avg3(x, out):
    for i in range(out.shape[0]):
        out[i] = (x[i] + x[i + 1] + x[i + 2]) / 3.0


# check: int32_array_ops(np.array([1, 2, 3], dtype=np.int32)) -> 6000 ; arg0 == [1000, 2000, 3000]
# check: int32_array_ops(np.array([3000000, -1], dtype=np.int32)) -> -1294968296 ; arg0 == [-1294967296, -1000]
@njit
def int32_array_ops(a):
    s = 0
    for i in range(a.shape[0]):
        a[i] = a[i] * 1000
        s += a[i]
    return s


# check: exp_decay_arr(np.zeros(5), 1.0, 0.5) -> 0.03125 ; arg0 == [1.0, 0.5, 0.25, 0.125, 0.0625]
# check: exp_decay_arr(np.zeros(0), 2.0, 0.5) -> 2.0 ; arg0 == []
# check: exp_decay_arr(np.zeros(3), -4.0, 1.5) -> 0.5 ; arg0 == [-4.0, 2.0, -1.0]
@njit
def exp_decay_arr(out, x0, rate):
    x = x0
    for i in range(out.shape[0]):
        out[i] = x
        x -= rate * x
    return x


# Range tests `0 <= b < n` in their spellings, with indices below, inside and past the range
# (the host tests them with one unsigned comparison).
# check: bin_counts(np.array([-0.5, 0.0, 0.25, 0.99, 1.0, 1.5, -3.0, -0.1]), 4) -> ([2, 1, 0, 1], [2, 1, 0, 1], [2, 1, 0, 1])
@njit
def bin_counts(x, nbins):
    a = np.zeros(nbins, np.int64)
    b = np.zeros(nbins, np.int64)
    c = np.zeros(nbins, np.int64)
    for v in x:
        k = int(v * nbins)
        if 0 <= k < len(a):
            a[k] += 1
        if k >= 0 and k < b.shape[0]:
            b[k] += 1
        if -1 < k and k < 4:
            c[k] += 1
    return a, b, c


# check: in_window(np.array([-2, -1, 0, 3, 4, 5]), 4) -> [False, False, True, True, False, False]
@njit
def in_window(ks, n):
    out = np.zeros(ks.shape[0], np.bool_)
    for i in range(ks.shape[0]):
        out[i] = 0 <= ks[i] < n
    return out
