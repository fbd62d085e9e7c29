"""Views that read an array's bytes as another dtype: `a.view(dtype)` (bit patterns, bytes of
a buffer, pairs of words) and `z.real` / `z.imag` of complex arrays, which read and write the
parts in place, as signal-processing code uses them."""
import numpy as np
from numba import njit


# check: float_bits(np.array([1.0, -2.0, 0.5])) -> [4607182418800017408, -4611686018427387904, 4602678819172646912]
@njit
def float_bits(a):
    return a.view(np.int64).copy()


# The sign bit of each float, from its bit pattern.
# check: sign_bits(np.array([1.5, -0.0, -3.0, 0.0], dtype=np.float32)) -> [0, 1, 1, 0]
@njit
def sign_bits(a):
    u = a.view(np.uint32)
    out = np.empty(a.shape[0], dtype=np.int64)
    for i in range(u.shape[0]):
        out[i] = u[i] >> 31
    return out


# The bytes of a buffer, little-endian.
# check: byte_sum(np.array([1, 256, 65535], dtype=np.int32)) -> (12, 2, 512)
@njit
def byte_sum(a):
    b = a.view(np.uint8)
    s = 0
    for x in b:
        s += x
    return b.shape[0], b[0] + b[4] + b[5], s


# Four bytes at a time as words, and a 2-D view of pairs of floats as complex numbers.
# check: words(np.arange(8, dtype=np.uint8)) -> [50462976, 117835012]
# check: words(np.arange(6, dtype=np.uint8)) raises ValueError
@njit
def words(a):
    return a.view(np.uint32).copy()


# check: as_complex(np.array([[1.0, 2.0], [3.0, -4.0]])) -> (2, 1, 5.0, 2.0)
@njit
def as_complex(xy):
    z = xy.view(np.complex128)
    return z.shape[0], z.shape[1], abs(z[1, 0]), z[0, 0].imag


# Parts of a complex array: read, and written in place.
# check: parts(np.array([1 + 2j, 3 - 4j, -0.5j])) -> (4.0, -2.5, 3, 2)
@njit
def parts(z):
    re = z.real
    im = z.imag
    return re.sum(), im.sum(), re.shape[0], re.ndim + 1


# check: conjugate_in_place(np.array([1 + 2j, 3 - 4j])) -> [(1-2j), (3+4j)] ; arg0 == [(1-2j), (3+4j)]
@njit
def conjugate_in_place(z):
    im = z.imag
    for i in range(im.shape[0]):
        im[i] = -im[i]
    return z


# check: magnitude2(np.array([[3 + 4j, 1j], [2.0 + 0j, -1 - 1j]])) -> [[25.0, 1.0], [4.0, 2.0]]
@njit
def magnitude2(z):
    return z.real ** 2 + z.imag ** 2


# Of a real array, .real is the array and .imag zeros.
# check: real_parts(np.array([1.5, -2.0])) -> (-0.5, 0.0, 2)
@njit
def real_parts(a):
    return a.real.sum(), a.imag.sum(), a.imag.shape[0]


# A strided view of a view: every second real part.
# check: every_other_real(np.array([1 + 1j, 2 + 2j, 3 + 3j, 4 + 4j, 5 + 5j])) -> [1.0, 3.0, 5.0]
@njit
def every_other_real(z):
    return z.real[::2].copy()


# Branches on an array's dtype, decided per signature (Numba folds the comparison; it
# compares dtype objects with `==` only).
# check: dtype_kind(np.array([1.0, 2.0])) -> 1
# check: dtype_kind(np.array([1.0, 2.0], dtype=np.float32)) -> 2
# check: dtype_kind(np.array([1, 2])) -> 3
# check: dtype_kind(np.array([1 + 0j])) -> 0
@njit
def dtype_kind(a):
    if a.dtype == np.dtype("float64"):
        return 1
    elif a.dtype == np.dtype(np.float32):
        return 2
    elif np.dtype("int64") == a.dtype:
        return 3
    return 0


# check: same_dtypes(np.zeros(2), np.ones(3)) -> (True, False)
# check: same_dtypes(np.zeros(2, dtype=np.int32), np.zeros(2, dtype=np.int32)) -> (True, True)
@njit
def same_dtypes(a, b):
    return a.dtype == b.dtype, a.dtype == np.dtype("int32")
