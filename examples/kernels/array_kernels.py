"""Kernels that allocate, return and view arrays: the benchmark of arrays as values
(benches/compare/compare_arrays.py runs them under Numba and twinjit side by side)."""
import numpy as np
from numba import njit


@njit
def temp_per_iteration(reps, n):
    """A scratch array allocated and freed on every pass of a loop."""
    s = 0.0
    for r in range(reps):
        scratch = np.empty(n)
        scratch[0] = r
        scratch[n - 1] = 1.0
        s += scratch[0] + scratch[n - 1]
    return s


@njit
def normalized_copy(x):
    """(x - mean) / std as a new array: one allocation per call, returned to the caller."""
    n = x.shape[0]
    mean = 0.0
    for i in range(n):
        mean += x[i]
    mean /= n
    var = 0.0
    for i in range(n):
        d = x[i] - mean
        var += d * d
    std = np.sqrt(var / n)
    out = np.empty_like(x)
    for i in range(n):
        out[i] = (x[i] - mean) / std
    return out


@njit
def window_max_sum(a, w):
    """The sum over every window `a[i:i + w]` (a view, no copy) of its largest element."""
    total = 0.0
    for i in range(a.shape[0] - w + 1):
        win = a[i:i + w]
        m = win[0]
        for j in range(1, win.shape[0]):
            if win[j] > m:
                m = win[j]
        total += m
    return total


@njit
def zeros_grid(n, m):
    """A zeroed 2-D array with a border of ones."""
    g = np.zeros((n, m))
    g[0, :] = 1.0
    g[n - 1, :] = 1.0
    g[:, 0] = 1.0
    g[:, m - 1] = 1.0
    return g


@njit
def primes_list(n):
    """How many primes lie below n: each odd k is tried against the primes found so far, read
    by index from a list that grows by append."""
    primes = [2]
    k = 3
    while k < n:
        j = 0
        while primes[j] * primes[j] <= k and k % primes[j] != 0:
            j += 1
        if primes[j] * primes[j] > k:
            primes.append(k)
        k += 2
    return len(primes)


@njit
def sorted_squares(x):
    """A comprehension over an array, sorted: the median square (a list per call)."""
    sq = sorted([v * v for v in x])
    return sq[len(sq) // 2]
