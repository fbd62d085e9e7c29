"""Parallel host kernels (`parallel=True` with `prange`) for the benchmarks. The same file runs
under Numba."""
import numpy as np
from numba import njit, prange


@njit(parallel=True)
def mandelbrot(out, max_iter):
    h = out.shape[0]
    w = out.shape[1]
    for y in prange(h):
        ci = -1.5 + 3.0 * y / h
        for x in range(w):
            cr = -2.0 + 3.0 * x / w
            zr = 0.0
            zi = 0.0
            n = 0
            while n < max_iter and zr * zr + zi * zi <= 4.0:
                t = zr * zr - zi * zi + cr
                zi = 2.0 * zr * zi + ci
                zr = t
                n += 1
            out[y, x] = n


@njit(parallel=True)
def ising_energy(s, j):
    n = s.shape[0]
    m = s.shape[1]
    e = 0.0
    for i in prange(n):
        for k in range(m):
            right = s[i, (k + 1) % m]
            down = s[(i + 1) % n, k]
            e += s[i, k] * (right + down)
    return -j * e


@njit(parallel=True)
def histogram(x, lo, hi, partial):
    # One row of counts per chunk of the input, summed afterwards (no two iterations share a row).
    chunks = partial.shape[0]
    nbins = partial.shape[1]
    scale = nbins / (hi - lo)
    size = (x.shape[0] + chunks - 1) // chunks
    for c in prange(chunks):
        for i in range(c * size, min((c + 1) * size, x.shape[0])):
            b = int((x[i] - lo) * scale)
            if b >= 0 and b < nbins:
                partial[c, b] += 1
    total = 0
    for c in range(chunks):
        total += partial[c, nbins - 1]
    return total


@njit(parallel=True)
def dot(a, b):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * b[i]
    return s


@njit(parallel=True)
def exp_decay(x, rate, out):
    for i in prange(x.shape[0]):
        out[i] = np.exp(-rate * x[i])
