"""Counted loops the host runs two iterations per trip (issue 16's unrolling of the loops it
does not vectorise): every iteration must still run in order, so a float sum keeps Python's
rounding, a recurrence sees the value before it, an IndexError comes at the same index, and
every length (odd, even, one, none) ends on the right value."""
import numpy as np
from numba import njit


# A float sum in Python's order (no fastmath: not vectorised).
# check: ordered_dot(np.array([1e16, 1.0, -1e16, 1.0, 0.5]), np.array([1.0, 1.0, 1.0, 1.0, 1.0])) -> 1.5
# check: ordered_dot(np.array([0.1, 0.2, 0.3, 0.4]), np.array([3.0, 3.0, 3.0, 3.0])) -> 3.0
# check: ordered_dot(np.array([2.5]), np.array([4.0])) -> 10.0
# check: ordered_dot(np.zeros(0), np.zeros(0)) -> 0.0
@njit
def ordered_dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


# Several loop-carried values, each reading the one before.
# check: fib_pair(0) -> (0, 1)
# check: fib_pair(1) -> (1, 1)
# check: fib_pair(2) -> (1, 2)
# check: fib_pair(7) -> (13, 21)
# check: fib_pair(90) -> (2880067194370816120, 4660046610375530309)
@njit
def fib_pair(n):
    a = 0
    b = 1
    for _ in range(n):
        a, b = b, a + b
    return a, b


# A running sum written as it goes (each element reads the previous store).
# check: running(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])) -> [1.0, 2.5, 4.25, 6.125, 8.0625, 10.03125, 12.015625]
@njit
def running(a):
    for i in range(1, a.shape[0]):
        a[i] = a[i - 1] * 0.5 + a[i]
    return a


# An index past the end on an odd and on an even iteration: the same IndexError.
# check: fill_until_bad(np.zeros(5), 1) raises IndexError
# check: fill_until_bad(np.zeros(4), 3) raises IndexError
# check: fill_until_bad(np.zeros(4), 0) -> [0.0, 0.5, 1.5, 3.0]
@njit(boundscheck=True)
def fill_until_bad(out, extra):
    for i in range(out.shape[0] + extra):
        out[i] = i * 0.5 + out[i - 1]
    return out


# A loop whose start is not zero, and whose bound is one past the start.
# check: window(np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]), 3, 4) -> (3.0, 0.0)
# check: window(np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]), 3, 9) -> (13.96875, 0.0)
# check: window(np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]), 5, 5) -> (0.0, -1.0)
@njit
def window(a, lo, hi):
    s = 0.0
    m = -1.0
    for i in range(lo, hi):
        s = s * 0.5 + a[i]
        m = max(m, a[i] - s)
    return s, m


# Integer modulo and division by a loop-invariant divisor, with a negative operand.
# check: mod_mix(np.array([-7, 9, 4, -1, 12, 5, -13], dtype=np.int64), 4) -> 1951
@njit
def mod_mix(a, k):
    t = 0
    for i in range(len(a)):
        t = t * 3 + a[i] % k - a[i] // k
    return t


# A periodic neighbour `(j + 1) % m` as the Ising kernels write it, on widths 1, 2 and 5.
# check: ring_sum(np.array([[1.0], [2.0]])) -> 2.0
# check: ring_sum(np.array([[1.0, 2.0], [3.0, 4.0]])) -> 18.0
# check: ring_sum(np.array([[1.0, -2.0, 3.0, -4.0, 5.0], [0.5, 0.25, -1.0, 2.0, 8.0]])) -> -29.875
@njit
def ring_sum(s):
    n, m = s.shape
    e = 0.0
    for i in range(n):
        for j in range(m):
            e += s[i, j] * s[i, (j + 1) % m] - s[(i + 1) % n, j]
    return e
