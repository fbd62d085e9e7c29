"""Kernels where a product meets a sum, written as numba-cuda users write them. The same file
runs under numba-cuda and twinjit; `parity.py` compares their outputs bit for bit on one GPU
(issue 17 item 6: follow NVVM's FMA contraction)."""
import math

from numba import cuda


@cuda.jit
def mandelbrot(out, x0, y0, dx, dy, max_iter):
    j, i = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        cr = x0 + j * dx
        ci = y0 + i * dy
        zr = 0.0
        zi = 0.0
        n = 0
        while n < max_iter and zr * zr + zi * zi <= 4.0:
            t = zr * zr - zi * zi + cr
            zi = 2.0 * zr * zi + ci
            zr = t
            n += 1
        out[i, j] = n


@cuda.jit
def mandelbrot_f32(out, max_iter):
    j, i = cuda.grid(2)
    h, w = out.shape
    if i < h and j < w:
        c_re = (j - w / 2.0) * 3.0 / w - 0.5
        c_im = (i - h / 2.0) * 3.0 / h
        x = 0.0
        y = 0.0
        k = 0
        while k < max_iter:
            x2 = x * x
            y2 = y * y
            if x2 + y2 > 4.0:
                break
            y = 2.0 * x * y + c_im
            x = x2 - y2 + c_re
            k += 1
        out[i, j] = k


@cuda.jit
def complex_axpy(z, w, c, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = z[i] * w[i] + c[i]


@cuda.jit
def horner(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = ((0.25 * v - 1.5) * v + 2.0) * v - 0.75


@cuda.jit
def stencil(a, out):
    i, j = cuda.grid(2)
    n, m = a.shape
    if 0 < i < n - 1 and 0 < j < m - 1:
        lap = a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1] - 4.0 * a[i, j]
        out[i, j] = a[i, j] + 0.1 * lap + a[i, j] * a[i, j] * 0.01


@cuda.jit
def norms(p, out):
    i = cuda.grid(1)
    if i < out.size:
        dx = p[i, 0] - p[0, 0]
        dy = p[i, 1] - p[0, 1]
        dz = p[i, 2] - p[0, 2]
        out[i] = math.sqrt(dx * dx + dy * dy + dz * dz)


@cuda.jit
def dot_rows(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        s = 0.0
        for k in range(a.shape[1]):
            s += a[i, k] * b[i, k]
        out[i] = s


@cuda.jit
def transcendental(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = 1.0 / (1.0 + math.exp(-v)) + math.sin(v) * math.cos(v) - math.log1p(v * v)


@cuda.jit
def transcendental_f32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = math.exp(-v * v) * math.sin(v) + math.tanh(v) * math.sqrt(abs(v))
