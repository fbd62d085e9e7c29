"""Complex arithmetic inside kernels: Mandelbrot escape counts, a rotation by cmath.exp and
complex scalar arguments, written out as real and imaginary float arrays.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py)."""
import cmath
import math

import numpy as np
from numba import complex128, cuda


# Escape iteration counts of a row of points c = x + 0.5j.
# check: escape_row[1, 8](np.array([-2.0, -1.0, -0.5, 0.0, 0.25, 0.5]), np.zeros(6, dtype=np.int32)) -> None ; arg1 == [1, 5, 40, 40, 40, 5]
@cuda.jit
def escape_row(xs, out):
    i = cuda.grid(1)
    if i < xs.size:
        c = complex(xs[i], 0.5)
        z = 0j
        n = 0
        while n < 40 and abs(z) <= 2.0:
            z = z * z + c
            n += 1
        out[i] = n


# Rotates the points (re[i], im[i]) by the angle theta: multiplication by exp(i theta).
# check: rotate[1, 4](np.array([1.0, 0.0, 1.0]), np.array([0.0, 1.0, 1.0]), 0.5, np.zeros(3), np.zeros(3)) -> None ; arg3 == [0.8775825618903728, -0.479425538604203, 0.39815702328616975] ; arg4 == [0.479425538604203, 0.8775825618903728, 1.3570081004945758]
@cuda.jit
def rotate(re, im, theta, out_re, out_im):
    i = cuda.grid(1)
    if i < re.size:
        w = complex(re[i], im[i]) * cmath.exp(1j * theta)
        out_re[i] = w.real
        out_im[i] = w.imag


# A complex argument: scales each element, then divides by the argument's conjugate.
# check: scale_div[1, 4](np.array([1.0, 2.0, -3.0]), np.complex128(1 + 2j), np.zeros(3), np.zeros(3)) -> None ; arg2 == [-0.6000000000000001, -1.2000000000000002, 1.8] ; arg3 == [0.8, 1.6, -2.4000000000000004]
@cuda.jit
def scale_div(x, z, out_re, out_im):
    i = cuda.grid(1)
    if i < x.size:
        w = x[i] * z / z.conjugate()
        out_re[i] = w.real
        out_im[i] = w.imag


# Square roots and magnitudes of x + 1j.
# check: roots[1, 4](np.array([-4.0, 0.0, 3.0]), np.zeros(3), np.zeros(3)) -> None ; arg1 == [0.24809839340235612, 0.7071067811865476, 1.755317301824428] ; arg2 == [2.030543184868931, 1.0, 1.7782794100389228]
@cuda.jit
def roots(x, out_re, out_abs):
    i = cuda.grid(1)
    if i < x.size:
        r = cmath.sqrt(complex(x[i], 1.0))
        out_re[i] = r.real
        out_abs[i] = abs(r)


# Complex arrays on the device: an elementwise product and a conjugate, in place.
# check: cmul[1, 4](np.array([1 + 1j, 2j, -1 + 0.5j]), np.array([1 - 1j, 3 + 0j, 2j]), np.zeros(3, dtype=np.complex128)) -> None ; arg2 == [(2+0j), 6j, (-1-2j)]
@cuda.jit
def cmul(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] * b[i]


# check: conj_inplace[1, 4](np.array([1 + 2j, -3j, 0.5 + 0j], dtype=np.complex64)) -> None ; arg0 == [(1-2j), (-0+3j), (0.5-0j)]
@cuda.jit
def conj_inplace(z):
    i = cuda.grid(1)
    if i < z.size:
        z[i] = z[i].conjugate()


# A local array of complex numbers.
# check: local_pairs[1, 4](np.array([1 + 1j, 2 + 0j, -1j]), np.zeros(3, dtype=np.complex128)) -> None ; arg1 == [2j, (2+2j), (1-1j)]
@cuda.jit
def local_pairs(a, out):
    i = cuda.grid(1)
    if i < a.size:
        tmp = cuda.local.array(2, complex128)
        tmp[0] = a[i]
        tmp[1] = a[i] * 1j
        out[i] = tmp[0] + tmp[1]
