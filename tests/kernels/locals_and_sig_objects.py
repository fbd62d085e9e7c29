"""Numba's decorator forms beyond strings: signatures as type objects (from numba, numba.types
and numba.core.types), lists of signatures, tuples of argument types, `locals=` declarations
that change the result, `register_jitable`, and options that change nothing here."""
import numba
import numpy as np
from numba import float32, float64, int32, int64, intp, njit, types
from numba.core import types as core_types
from numba.extending import register_jitable


# locals={'acc': float32}: every assignment rounds to float32, so 0.1 summed ten times drifts.
# check: sum_tenths_f32(10) -> 1.0000001192092896
# check: sum_tenths_f32(3) -> 0.30000001192092896
@njit(locals={"acc": float32})
def sum_tenths_f32(n):
    acc = 0.0
    for i in range(n):
        acc += 0.1
    return acc


# The same without the declaration accumulates in float64.
# check: sum_tenths_f64(10) -> 0.9999999999999999
@njit
def sum_tenths_f64(n):
    acc = 0.0
    for i in range(n):
        acc += 0.1
    return acc


# locals with numba.int32 truncates each assignment.
# check: trunc_steps(2.75) -> 2
@njit(locals={"k": numba.int32})
def trunc_steps(x):
    k = x
    return k


# check: dot_obj(np.array([1.0, 2.0]), np.array([3.0, 4.0]), 2) -> 11.0
@njit(float64(float64[:], float64[:], int64))
def dot_obj(a, b, n):
    s = 0.0
    for i in range(n):
        s += a[i] * b[i]
    return s


# check: row_sum(np.array([[1.0, 2.0], [3.0, 4.0]]), 1) -> 7.0
@njit(types.float64(types.float64[:, ::1], types.intp))
def row_sum(a, i):
    s = 0.0
    for j in range(a.shape[1]):
        s += a[i, j]
    return s


# check: total_2d(np.array([[1.0, 2.0], [3.0, 4.0]])) -> 10.0
@njit([core_types.float64(core_types.Array(core_types.float64, 2, "C")), "float64(float64[:, :])"])
def total_2d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    return s


@njit(types.float64(types.UniTuple(types.float64, 3)))
def norm3(t):
    return (t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) ** 0.5


# check: norm_xyz(3.0, 4.0, 12.0) -> 13.0
@njit
def norm_xyz(x, y, z):
    return norm3((x, y, z))


# check: pick(True, 2, 3) -> 2
# check: pick(False, 2, 3) -> 3
@njit((types.boolean, int32, intp))
def pick(c, a, b):
    return a if c else b


@register_jitable
def sq(x):
    return x * x


# check: sum_sq(3) -> 14
@njit(nogil=True, boundscheck=False, error_model="numpy", inline="never", fastmath=True)
def sum_sq(n):
    s = 0
    for i in range(1, n + 1):
        s += sq(i)
    return s
