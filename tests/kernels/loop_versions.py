"""Loops over one array's range that index another array with a length of its own: the usual
`out[i] = f(x[i])`, shifted neighbours `y[i + 1]`, and running sums over two arrays. When the
lengths fit, they run without a bounds check per element; when they do not, they must raise
the same IndexError after writing the same elements as Numba with bounds checks."""
import math
import numpy as np
from numba import njit


# check: decay_into(np.array([0.0, 1.0, 2.0]), 0.5, np.zeros(3)) -> None ; arg2 == [1.0, 0.6065306597126334, 0.36787944117144233]
# check: decay_into(np.array([0.0, 1.0, 2.0]), 0.5, np.zeros(5)) -> None ; arg2 == [1.0, 0.6065306597126334, 0.36787944117144233, 0.0, 0.0]
# check: decay_into(np.array([0.0, 1.0, 2.0]), 0.5, np.zeros(2)) raises IndexError ; arg2 == [1.0, 0.6065306597126334]
# check: decay_into(np.zeros(0), 0.5, np.zeros(0)) -> None ; arg2 == []
@njit(boundscheck=True)
def decay_into(x, rate, out):
    for i in range(x.shape[0]):
        out[i] = math.exp(-rate * x[i])


# Forward differences into a shorter array, and a shift by a run-time offset.
# check: shift_add(np.array([1.0, 2.0, 4.0, 8.0]), np.zeros(4), 1) -> None ; arg1 == [0.0, 3.0, 6.0, 12.0]
# check: shift_add(np.array([1.0, 2.0, 4.0, 8.0]), np.zeros(3), 1) raises IndexError ; arg1 == [0.0, 3.0, 6.0]
# check: shift_add(np.array([1.0, 2.0, 4.0, 8.0]), np.zeros(6), 2) -> None ; arg1 == [0.0, 0.0, 3.0, 6.0, 12.0, 0.0]
# check: shift_add(np.array([1.0, 2.0, 4.0, 8.0]), np.zeros(6), -1) -> None ; arg1 == [6.0, 12.0, 0.0, 0.0, 0.0, 3.0]
@njit(boundscheck=True)
def shift_add(x, out, k):
    for i in range(1, x.shape[0]):
        out[i + k - 1] = x[i] + x[i - 1]


# A dot product over the first array's length: the second may be longer, or too short.
# check: partial_dot(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0, 7.0])) -> 32.0
# check: partial_dot(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0])) raises IndexError
# check: partial_dot(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])) -> 32.0
@njit(boundscheck=True)
def partial_dot(x, y):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


# Pairwise sums from a start inside the array, with the range's stop given by the caller.
# check: window_sums(np.array([1, 2, 3, 4, 5]), np.zeros(5, dtype=np.int64), 1, 5) -> 14 ; arg1 == [0, 3, 5, 7, 9]
# check: window_sums(np.array([1, 2, 3, 4, 5]), np.zeros(5, dtype=np.int64), 1, 6) raises IndexError ; arg1 == [0, 3, 5, 7, 9]
# check: window_sums(np.array([1, 2, 3, 4, 5]), np.zeros(5, dtype=np.int64), 4, 2) -> 0 ; arg1 == [0, 0, 0, 0, 0]
@njit(boundscheck=True)
def window_sums(a, out, lo, hi):
    t = 0
    for i in range(lo, hi):
        out[i] = a[i] + a[i - 1]
        t += a[i]
    return t


# The plain form: a scaled copy into an output of its own length (runs in vector registers on
# the host once the lengths are known to fit).
# check: scaled_into(np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.zeros(5), 0.5) -> None ; arg1 == [0.5, 1.0, 1.5, 2.0, 2.5]
# check: scaled_into(np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.zeros(4), 0.5) raises IndexError ; arg1 == [0.5, 1.0, 1.5, 2.0]
@njit(boundscheck=True)
def scaled_into(x, out, c):
    for i in range(x.shape[0]):
        out[i] = x[i] * c


# A recurrence written through the output array (`out[i]` reads `out[i - 1]`): the loop keeps
# the value it stored for the next iteration instead of reading it back. The output may be
# shorter (IndexError after the same writes), or the input itself.
# check: smooth_into(np.array([1.0, 2.0, 4.0, 8.0]), np.zeros(4), 0.5) -> None ; arg1 == [1.0, 1.5, 2.75, 5.375]
# check: smooth_into(np.array([1.0, 2.0, 4.0, 8.0]), np.zeros(3), 0.5) raises IndexError ; arg1 == [1.0, 1.5, 2.75]
# check: smooth_into(np.array([3.0]), np.zeros(2), 0.5) -> None ; arg1 == [3.0, 0.0]
@njit(boundscheck=True)
def smooth_into(x, out, alpha):
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = alpha * out[i - 1] + (1.0 - alpha) * x[i]


# check: smooth_in_place(np.array([1.0, 2.0, 4.0, 8.0, 16.0]), 0.25) -> 17.15234375
@njit(boundscheck=True)
def smooth_in_place(x, alpha):
    smooth_into(x, x, alpha)
    return x[-1] + x[2]


# A cumulative sum along each row of a 2-D array, in place (the row is a loop-invariant offset).
# check: row_cumsum(np.array([[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]])) -> [[0.0, 1.0, 3.0, 6.0], [4.0, 9.0, 15.0, 22.0], [8.0, 17.0, 27.0, 38.0]]
# check: row_cumsum(np.array([[1.0], [1.0]])) -> [[1.0], [1.0]]
@njit(boundscheck=True)
def row_cumsum(g):
    n, m = g.shape
    for r in range(n):
        for j in range(1, m):
            g[r, j] = g[r, j - 1] + g[r, j]
    return g


# A row of a 2-D array picked by a run-time index (the same check in every iteration of the
# inner loop: negative rows wrap, rows past the end raise before any write).
# check: add_row(np.zeros(3), np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), 1) -> None ; arg0 == [3.0, 4.0, 5.0]
# check: add_row(np.zeros(3), np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), -2) -> None ; arg0 == [0.0, 1.0, 2.0]
# check: add_row(np.zeros(3), np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), 2) raises IndexError ; arg0 == [0.0, 0.0, 0.0]
# check: add_row(np.zeros(4), np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), 0) raises IndexError ; arg0 == [0.0, 1.0, 2.0, 0.0]
@njit(boundscheck=True)
def add_row(c, b, k):
    for j in range(c.shape[0]):
        c[j] += b[k, j]


# The matrix product in i-k-j order, accumulating into the output.
# check: matmul_ikj(np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), np.array([[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]), np.array([[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]])) -> [[20.0, 23.0, 26.0, 29.0], [56.0, 68.0, 80.0, 92.0]]
# check: matmul_ikj(np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), np.array([[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]), np.array([[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]])) raises IndexError
@njit(boundscheck=True)
def matmul_ikj(a, b, c):
    n, kk = a.shape
    m = b.shape[1]
    c[:, :] = 0.0
    for i in range(n):
        for k in range(kk):
            aik = a[i, k]
            for j in range(m):
                c[i, j] += aik * b[k, j]
    return c


# Bins tested by a chained comparison: values below, inside and above the range.
# check: chained_histogram(np.array([-0.5, 0.05, 0.15, 0.95, 1.0, 2.5, 0.55]), 0.0, 1.0, np.zeros(10, dtype=np.int64)) -> None ; arg3 == [1, 1, 0, 0, 0, 1, 0, 0, 0, 1]
@njit(boundscheck=True)
def chained_histogram(x, lo, hi, counts):
    nbins = len(counts)
    for v in x:
        b = int((v - lo) / (hi - lo) * nbins)
        if 0 <= b < nbins:
            counts[b] += 1


# Loops whose body branches, over a range that starts where the caller says (a chunk of the
# input): the copy without checks runs when the whole range is inside the array; a negative
# start wraps as Python does (`x[-2]`), and a range past the end raises after the same counts.
# check: counts_between(np.array([0.5, 2.5, 1.5, 9.0, 0.1]), np.zeros(3, dtype=np.int64), 0, 5) -> 4 ; arg1 == [2, 1, 1]
# check: counts_between(np.array([0.5, 2.5, 1.5, 9.0, 0.1]), np.zeros(3, dtype=np.int64), 1, 3) -> 2 ; arg1 == [0, 1, 1]
# check: counts_between(np.array([0.5, 2.5, 1.5, 9.0, 0.1]), np.zeros(3, dtype=np.int64), -2, 2) -> 3 ; arg1 == [2, 0, 1]
# check: counts_between(np.array([0.5, 2.5, 1.5, 9.0, 0.1]), np.zeros(3, dtype=np.int64), 3, 7) raises IndexError ; arg1 == [1, 0, 0]
# check: counts_between(np.array([0.5, 2.5, 1.5, 9.0, 0.1]), np.zeros(3, dtype=np.int64), -7, 0) raises IndexError ; arg1 == [0, 0, 0]
# check: counts_between(np.array([0.5, 2.5, 1.5, 9.0, 0.1]), np.zeros(3, dtype=np.int64), 4, 2) -> 0 ; arg1 == [0, 0, 0]
@njit(boundscheck=True)
def counts_between(x, counts, lo, hi):
    n = 0
    for i in range(lo, hi):
        b = int(x[i])
        if b >= 0 and b < counts.shape[0]:
            counts[b] += 1
            n += 1
    return n


# Chunks of the input, each counted into its own row (the serial form of a `prange`
# histogram): the start of each chunk is computed, the end clipped by `min`.
# check: chunked_counts(np.array([0.5, 2.5, 1.5, 9.0, 0.1, 1.0, 2.0]), np.zeros((3, 3), dtype=np.int64)) -> 6 ; arg1 == [[1, 1, 1], [1, 1, 0], [0, 0, 1]]
# check: chunked_counts(np.array([0.5, 2.5]), np.zeros((3, 3), dtype=np.int64)) -> 2 ; arg1 == [[1, 0, 0], [0, 0, 1], [0, 0, 0]]
@njit(boundscheck=True)
def chunked_counts(x, partial):
    chunks, nbins = partial.shape
    size = (x.shape[0] + chunks - 1) // chunks
    total = 0
    for c in range(chunks):
        for i in range(c * size, min((c + 1) * size, x.shape[0])):
            b = int(x[i])
            if b >= 0 and b < nbins:
                partial[c, b] += 1
                total += 1
    return total


# A search that leaves the loop early from the middle of its body (a `break` under an `if`).
# check: first_above(np.array([0.5, 2.5, 1.5, 9.0]), 0, 2.0) -> 1
# check: first_above(np.array([0.5, 2.5, 1.5, 9.0]), 2, 2.0) -> 3
# check: first_above(np.array([0.5, 2.5, 1.5, 9.0]), 2, 10.0) -> -1
# check: first_above(np.array([0.5, 2.5, 1.5, 9.0]), -3, 2.0) -> -3
# check: first_above(np.array([0.5, 2.5, 1.5, 9.0]), -5, 2.0) raises IndexError
@njit(boundscheck=True)
def first_above(x, lo, t):
    k = -1
    for i in range(lo, len(x)):
        if x[i] > t:
            k = i
            break
    return k


# Short-circuit conditions of two tests, `and` and `or`, choosing what to add.
# check: either_side(np.array([-3.0, -0.5, 0.0, 0.5, 3.0, 1.5]), 1.0) -> [-1.0, 0.0, 0.0, 0.0, 1.0, 1.0]
@njit
def either_side(x, t):
    out = np.zeros_like(x)
    for i in range(len(x)):
        v = x[i]
        if v > t or v < -t:
            out[i] = 1.0 if v > 0 and v > t else -1.0
    return out
