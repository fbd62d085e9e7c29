"""`parallel=True` with `prange`: the outermost prange loop of a nest runs its iterations on
several threads; scalar reductions (`+= -= *= /=`, `min`, `max`) are combined across threads.
Float sums here add values whose partial sums are exact, so every association of the
additions gives the same result (Numba's and twinjit's chunks differ)."""

import math

import numpy as np
from numba import njit, prange
import numba


@njit(parallel=True)
def scale_into(a, out, k):
    for i in prange(a.shape[0]):
        out[i] = a[i] * k
    return out.sum()


# check: scale_into(np.arange(10, dtype=np.float64), np.zeros(10), 3.0) -> 135.0
# check: scale_into(np.arange(8, dtype=np.float64), np.zeros(8), 0.5) -> 14.0 ; arg1 == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5]


@njit(parallel=True)
def total(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


# check: total(np.arange(100000, dtype=np.float64)) -> 4999950000.0
# check: total(np.zeros(0)) -> 0.0
# check: total(np.array([2.5])) -> 2.5


@njit(parallel=True)
def int_sum_of_squares(n):
    acc = 0
    for i in prange(n):
        acc += i * i
    return acc


# check: int_sum_of_squares(10) -> 285
# check: int_sum_of_squares(100000) -> 333328333350000
# check: int_sum_of_squares(0) -> 0


@njit(parallel=True)
def countdown(n, start):
    r = start
    for i in prange(n):
        r -= i
    return r


# check: countdown(100, 10000) -> 5050
# check: countdown(1, 7) -> 7


@njit(parallel=True)
def product_of(a):
    p = 1
    for i in prange(len(a)):
        p *= a[i]
    return p


# check: product_of(np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])) -> 3628800
# check: product_of(np.full(301, -1)) -> -1


@njit(parallel=True)
def halvings(x, n):
    for i in prange(n):
        x /= 2.0
    return x


# check: halvings(1024.0, 10) -> 1.0
# check: halvings(3.0, 0) -> 3.0


@njit(parallel=True)
def min_max(a):
    lo = np.inf
    hi = -np.inf
    for i in prange(a.size):
        lo = min(lo, a[i])
        hi = max(hi, a[i])
    return lo, hi


# check: min_max(np.array([3.0, -1.5, 8.0, 2.0, 8.0, -7.25, 0.0])) -> (-7.25, 8.0)
# check: min_max(np.arange(-1000, 4000, 7, dtype=np.float64)) -> (-1000.0, 3998.0)


@njit(parallel=True)
def int_extremes(a):
    lo = a[0]
    hi = a[0]
    for i in prange(1, a.shape[0]):
        lo = min(lo, a[i])
        hi = max(a[i], hi)
    return hi - lo


# check: int_extremes(np.array([5, 3, 9, -2, 7, 11, 0])) -> 13
# check: int_extremes(np.array([4])) -> 0


@njit(parallel=True)
def positive_sum_and_count(a):
    s = 0.0
    n = 0
    for i in prange(a.shape[0]):
        if a[i] > 0:
            s += a[i]
            n += 1
    return s, n


# check: positive_sum_and_count(np.array([1.0, -2.0, 3.0, -4.0, 5.0])) -> (9.0, 3)
# check: positive_sum_and_count(np.arange(-500, 500, dtype=np.float64)) -> (124750.0, 499)


@njit(parallel=True)
def row_sums(m, out):
    rows, cols = m.shape
    for i in prange(rows):
        s = 0.0
        for j in range(cols):
            s += m[i, j]
        out[i] = s
    return out


# check: row_sums(np.arange(12, dtype=np.float64).reshape(3, 4), np.zeros(3)) -> [6.0, 22.0, 38.0]


@njit(parallel=True)
def grid_total(m):
    t = 0
    for i in prange(m.shape[0]):
        for j in range(m.shape[1]):
            t += m[i, j]
    return t


# check: grid_total(np.arange(600).reshape(20, 30)) -> 179700
# check: grid_total(np.ones((300, 7), dtype=np.int32)) -> 2100


@njit
def collatz_steps(x):
    steps = 0
    while x != 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        steps += 1
    return steps


@njit(parallel=True)
def longest_collatz(n, out):
    best = 0
    for i in prange(1, n + 1):
        c = collatz_steps(i)
        out[i - 1] = c
        best = max(best, c)
    return best


# check: longest_collatz(1000, np.zeros(1000, dtype=np.int64)) -> 178
# check: longest_collatz(10, np.zeros(10, dtype=np.int64)) -> 19 ; arg1 == [0, 1, 7, 2, 5, 8, 16, 3, 19, 6]


@njit(parallel=True)
def mandelbrot_rows(height, width, max_iter, out):
    for y in prange(height):
        ci = -1.5 + 3.0 * y / height
        for x in range(width):
            cr = -2.0 + 3.0 * x / width
            zr = 0.0
            zi = 0.0
            k = 0
            while k < max_iter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                k += 1
            out[y, x] = k
    return out.sum()


# check: mandelbrot_rows(40, 60, 50, np.zeros((40, 60), dtype=np.int32)) -> 29747


@njit(parallel=True)
def local_buffers(n):
    acc = 0.0
    for i in prange(n):
        tmp = np.zeros(3)
        tmp[0] = i
        tmp[1] = 2 * i
        tmp[2] = 3 * i
        acc += tmp.sum()
    return acc


# check: local_buffers(1000) -> 2997000.0


@njit(parallel=True)
def checked_sqrt(a, out):
    for i in prange(a.shape[0]):
        if a[i] < 0:
            raise ValueError("negative input")
        out[i] = math.sqrt(a[i])
    return out


# check: checked_sqrt(np.array([4.0, 9.0, 16.0]), np.zeros(3)) -> [2.0, 3.0, 4.0]
# check: checked_sqrt(np.array([4.0, -9.0, 16.0]), np.zeros(3)) raises ValueError: negative input


@njit(parallel=True)
def dot_parallel(x, y):
    s = 0.0
    for i in numba.prange(x.shape[0]):
        s += x[i] * y[i]
    return s


# check: dot_parallel(np.arange(2000, dtype=np.float64), np.ones(2000)) -> 1999000.0


@njit(parallel=True)
def histogram_counts(a, nbins):
    counts = np.zeros(nbins, dtype=np.int64)
    for b in prange(nbins):
        lo = b / nbins
        hi = (b + 1) / nbins
        c = 0
        for i in range(a.shape[0]):
            if lo <= a[i] < hi:
                c += 1
        counts[b] = c
    return counts


# check: histogram_counts(np.array([0.05, 0.15, 0.25, 0.35, 0.12, 0.95, 0.5]), 4) -> [3, 2, 1, 1]


@njit(parallel=True)
def nested_parallel(m):
    t = 0.0
    for i in prange(m.shape[0]):
        t += total(m[i])
    return t


# check: nested_parallel(np.arange(20, dtype=np.float64).reshape(4, 5)) -> 190.0


@njit
def serial_prange(n):
    s = 0
    for i in prange(n):
        s += i
    return s


# check: serial_prange(10) -> 45


@njit(parallel=True)
def thread_bookkeeping(n):
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    one = numba.get_num_threads()
    ids = np.zeros(n, dtype=np.int64)
    for i in prange(n):
        ids[i] = numba.get_thread_id()
    numba.set_num_threads(before)
    return one, ids.max() < before, numba.get_num_threads() == before


# check: thread_bookkeeping(1000) -> (1, True, True)


# ---------------------------------------------------------------- parallel=True without prange


# check: scaled_distance(np.array([3.0, 0.0, 1.0, 6.0]), np.array([4.0, 2.0, 1.0, 8.0])) -> [2.5, 1.0, 0.7071067811865476, 5.0]
# check: scaled_distance(np.arange(6, dtype=np.float64).reshape(2, 3), np.ones((2, 3))) -> [[0.5, 0.7071067811865476, 1.118033988749895], [1.5811388300841898, 2.0615528128088303, 2.5495097567963922]]
# check: scaled_distance(np.zeros(0), np.zeros(0)) -> []
@njit(parallel=True)
def scaled_distance(dx, dy):
    """An array expression in a parallel function: its loop runs on the thread pool."""
    return np.sqrt(dx * dx + dy * dy) * 0.5


# check: normalize_rows(np.array([[1.0, 3.0], [2.0, 2.0], [0.0, 4.0]])) -> [[0.25, 0.75], [0.5, 0.5], [0.0, 1.0]]
@njit(parallel=True)
def normalize_rows(a):
    """Row assignments of expressions inside a prange loop (the inner loops stay serial)."""
    out = np.empty_like(a)
    for i in prange(a.shape[0]):
        out[i] = a[i] / a[i].sum()
    return out


# A reduction whose second array has a length of its own: each chunk's loop has a bounds
# check, and a copy without it that runs when the chunk's range fits (the partial sum it leaves
# is read after the loop). (With a shorter `b`, Numba's parallel loop reads past its end
# despite `boundscheck=True`; twinjit raises IndexError, so that case is not a check here.)
# check: checked_dot(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]), np.array([2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0])) -> 56.0
# check: checked_dot(np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.25, 4.0, 8.0, 16.0])) -> 13.0
@njit(parallel=True, boundscheck=True)
def checked_dot(a, b):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * b[i]
    return s
