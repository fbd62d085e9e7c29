"""NumPy-style kernels (issue 15's suite): array expressions, reductions, a mask, cumsum,
argsort, row-slice distances, a matrix product and a seeded Monte Carlo estimate, written as a
Numba user writes them. Runs unchanged under Numba (`benches/compare/compare_numpy.py`) and
under twinjit (`cargo run --release --example bench_numpy`)."""
import numpy as np
from numba import njit


@njit
def hypot(x, y):
    return np.sqrt(x * x + y * y)


@njit
def zscore(a):
    return (a - a.mean()) / a.std()


@njit
def masked_sum(a):
    return np.sum(a[a > 0.5])


@njit
def running_sum(a):
    return np.cumsum(a)


@njit
def order(x):
    return np.argsort(x)


@njit
def pairwise(points):
    n = points.shape[0]
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            d = points[i] - points[j]
            out[i, j] = np.sqrt(np.sum(d * d))
    return out


@njit
def matmul(a, b):
    return np.dot(a, b)


@njit
def monte_carlo_pi(n):
    np.random.seed(0)
    x = np.random.random(n)
    y = np.random.random(n)
    return 4.0 * np.sum(x * x + y * y <= 1.0) / n

