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
