"""Host kernels used by the examples and benchmarks. The same file runs under Numba."""
import math

import numpy as np
from numba import njit


@njit
def fill_array(a):
    for k in range(a.shape[0]):
        a[k] += 1.0


@njit
def ising_energy(s, j):
    # 2-D Ising model energy with periodic boundaries: E = -J * sum s_ij * (right + down).
    n = s.shape[0]
    m = s.shape[1]
    e = 0.0
    for i in range(n):
        for k in range(m):
            right = s[i, (k + 1) % m]
            down = s[(i + 1) % n, k]
            e += s[i, k] * (right + down)
    return -j * e


@njit
def ising_field(s, j, h):
    # The same energy written the other common way: the shape unpacked, the neighbour above
    # through Python's negative index, a field term.
    n, m = s.shape
    e = 0.0
    for i in range(n):
        for k in range(m):
            x = s[i, k]
            nb = s[i - 1, k] + s[i, (k + 1) % m]
            e += -j * x * nb - h * x
    return e


@njit
def vecadd(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] + b[i]


@njit
def exp_decay(x, rate, out):
    for i in range(x.shape[0]):
        out[i] = math.exp(-rate * x[i])


@njit
def mandelbrot(out, max_iter):
    h = out.shape[0]
    w = out.shape[1]
    for y in range(h):
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


@njit
def matmul(a, b, c):
    n = a.shape[0]
    m = b.shape[1]
    kk = a.shape[1]
    for i in range(n):
        for j in range(m):
            acc = 0.0
            for k in range(kk):
                acc += a[i, k] * b[k, j]
            c[i, j] = acc


@njit
def prefix_sum(a, out):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
        out[i] = s


@njit
def histogram(x, lo, hi, counts):
    nbins = counts.shape[0]
    scale = nbins / (hi - lo)
    for i in range(x.shape[0]):
        b = int((x[i] - lo) * scale)
        if b >= 0 and b < nbins:
            counts[b] += 1


@njit
def dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@njit
def call_overhead(a, n):
    return n


# The same kernels written the other ways Numba users write them (the benchmark holds them to
# the same aims: optimisations must not depend on one spelling).


@njit
def fill_array_len(a):
    for i in range(len(a)):
        a[i] = a[i] + 1.0


@njit
def ising_rows(s, j):
    # Rows as views, the neighbours through negative indices.
    n, m = s.shape
    e = 0.0
    for i in range(n):
        row = s[i]
        above = s[i - 1]
        for k in range(m):
            e += row[k] * (above[k] + row[k - 1])
    return -j * e


@njit
def escape_time(c, max_iter):
    z = 0j
    for n in range(max_iter):
        z = z * z + c
        if z.real * z.real + z.imag * z.imag > 4.0:
            return n
    return max_iter


@njit
def mandelbrot_complex(out, max_iter):
    # Complex numbers and a helper function per pixel.
    h, w = out.shape
    for y in range(h):
        for x in range(w):
            c = complex(-2.0 + 3.0 * x / w, -1.5 + 3.0 * y / h)
            out[y, x] = escape_time(c, max_iter)


@njit
def matmul_ikj(a, b, c):
    # The cache-friendly loop order, accumulating into the output.
    n, kk = a.shape
    m = b.shape[1]
    c[:, :] = 0.0
    for i in range(n):
        for k in range(kk):
            aik = a[i, k]
            for j in range(m):
                c[i, j] += aik * b[k, j]


@njit
def prefix_sum_prev(a, out):
    out[0] = a[0]
    for i in range(1, len(a)):
        out[i] = out[i - 1] + a[i]


@njit
def histogram_iter(x, lo, hi, counts):
    nbins = len(counts)
    for v in x:
        b = int((v - lo) / (hi - lo) * nbins)
        if 0 <= b < nbins:
            counts[b] += 1


@njit
def dot_zip(a, b):
    s = 0.0
    for u, v in zip(a, b):
        s += u * v
    return s


@njit
def exp_decay_np(x, rate, out):
    for i in range(len(x)):
        out[i] = np.exp(-rate * x[i])


if __name__ == "__main__":
    a = np.zeros(10)
    fill_array(a)
    print(a.sum(), dot(a, a), math.pi)
