"""Elementwise loops that the host runs several iterations at a time (issue 16's SIMD): the
results must be the scalar loop's, bit for bit, for every length (the last iterations run
one by one), for float32 and float64, and when the arrays overlap (views of one buffer,
`a[i + 1] = a[i] ...`), where only the scalar order is right."""
import numpy as np
from numba import njit


# check: scale_shift(np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), 0.5, -1.0) -> [-1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0]
# check: scale_shift(np.array([0.0]), 0.5, -1.0) -> [-1.0]
# check: scale_shift(np.zeros(0), 2.0, 1.0) -> []
@njit
def scale_shift(x, a, b):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = a * x[i] + b
    return out


# check: hypot_into(np.array([3.0, 5.0, 8.0, -7.0, 9.0]), np.array([4.0, 12.0, 15.0, 24.0, -40.0])) -> [5.0, 13.0, 17.0, 25.0, 41.0]
@njit
def hypot_into(x, y):
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = np.sqrt(x[i] * x[i] + y[i] * y[i])
    return out


# float32: four lanes, and a tail of three.
# check: f32_mix(np.array([-5.5, -4.5, -3.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.5], dtype=np.float32)) -> [8.25, 2.25, -1.75, -3.75, -3.75, -1.75, -1.75, -3.75, -3.75, -1.75, 2.25]
@njit
def f32_mix(x):
    out = np.empty_like(x)
    k = np.float32(0.25)
    for i in range(x.shape[0]):
        out[i] = -abs(x[i]) / k + x[i] * x[i]
    return out


# A running recurrence: each iteration reads what the one before wrote.
# check: doubling_chain(np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])) -> [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]
@njit
def doubling_chain(a):
    for i in range(a.shape[0] - 1):
        a[i + 1] = a[i] * 2.0
    return a


# The same through views of one buffer: the store of one view is the next load of the other.
# check: view_chain(np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0])) -> [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
@njit
def view_chain(a):
    src = a[:-1]
    dst = a[1:]
    for i in range(src.shape[0]):
        dst[i] = src[i] + 1.0
    return a


# Shifted the other way: reading ahead of the store is the scalar order too.
# check: shift_left(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])) -> [20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 7.0]
@njit
def shift_left(a):
    for i in range(a.shape[0] - 1):
        a[i] = a[i + 1] * 10.0
    return a


# Two elements apart: far enough for two float64 lanes, not for four float32 ones.
# check: two_apart(np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])) -> [0.0, 1.0, 0.5, 1.5, 1.0, 2.0, 1.5, 2.5, 2.0]
# check: two_apart_f32(np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], dtype=np.float32)) -> [0.0, 1.0, 0.5, 1.5, 1.0, 2.0, 1.5, 2.5, 2.0]
@njit
def two_apart(a):
    for i in range(a.shape[0] - 2):
        a[i + 2] = a[i] + 0.5
    return a


@njit
def two_apart_f32(a):
    for i in range(a.shape[0] - 2):
        a[i + 2] = a[i] + np.float32(0.5)
    return a


# In place, same element: no overlap between lanes.
# check: in_place_square(np.array([1.5, -2.0, 3.0, 0.5, -0.25])) -> [2.25, 4.0, 9.0, 0.25, 0.0625]
@njit
def in_place_square(a):
    for i in range(a.shape[0]):
        a[i] = a[i] * a[i]
    return a


# A fill with an invariant value, from an offset start.
# check: fill_from(np.zeros(6), 2, 7.25) -> [0.0, 0.0, 7.25, 7.25, 7.25, 7.25]
@njit
def fill_from(a, start, v):
    for i in range(start, a.shape[0]):
        a[i] = v
    return a


# The inner loop of a 2-D array: the row's offset plus j.
# check: rows_normalised(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])) -> [[0.16666666666666666, 0.3333333333333333, 0.5], [0.26666666666666666, 0.3333333333333333, 0.4], [0.28, 0.32, 0.4]]
@njit
def rows_normalised(m):
    out = np.empty_like(m)
    for i in range(m.shape[0]):
        s = 0.0
        for j in range(m.shape[1]):
            s += m[i, j]
        for j in range(m.shape[1]):
            out[i, j] = m[i, j] / s
    return out


# A strided view: the element offset grows by the stride, so the loop stays scalar.
# check: every_other(np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])) -> [-0.0, 1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, -8.0, 9.0]
@njit
def every_other(a):
    v = a[::2]
    for i in range(v.shape[0]):
        v[i] = -v[i]
    return a


# Special values pass through the lanes unchanged.
# check: specials(np.array([np.inf, -np.inf, np.nan, -0.0, 0.0, 1e308, 5e-324])) -> [math.nan, math.nan, math.nan, 0.0, 0.0, math.inf, 0.0]
@njit
def specials(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] * 2.0 / 3.0 - x[i]
    return out


# An array expression: the fused loop of the rewrite (the guarded shape).
# check: expr_loop(np.array([0.0, 1.0, 2.0, 3.0, 4.0]), np.array([0.5, 1.5, 2.5, 3.5, 4.5])) -> [0.5, 1.4027756377319944, 2.630133547287853, 3.943105561979777, 5.29352456212342]
@njit
def expr_loop(x, y):
    return np.sqrt(x * x + y * y) - x / (y + 1.0)


# A piecewise function (a chain of `return`s) inlined into an elementwise loop: `if_convert`
# makes it straight-line selects and the loop runs in vectors. Every piece, the boundaries
# themselves, NaN (every test false: the last piece), infinities, and a tail after the
# four-vector loop.
@njit
def shipping(weight):
    if weight <= 0.5:
        return 3.2
    elif weight <= 2.0:
        return 3.2 + (weight - 0.5) * 1.75
    elif weight <= 10.0:
        return 5.825 + (weight - 2.0) * 0.9
    return 13.025 + (weight - 10.0) * 0.35


# check: shipping_all(np.array([0.0, 0.5, 0.75, 2.0, 3.5, 10.0, 12.25, -1.0, np.nan, np.inf, -np.inf, 1.999, 2.001])) -> [3.2, 3.2, 3.6375, 5.825, 7.175000000000001, 13.025, 13.8125, 3.2, math.nan, math.inf, 3.2, 5.82325, 5.8259]
@njit
def shipping_all(w):
    out = np.empty_like(w)
    for i in range(w.shape[0]):
        out[i] = shipping(w[i])
    return out


# The same in float32, into a given array, with an integer band as a second output.
# check: bands_f32(np.array([-3.0, 0.0, 0.5, 1.0, 4.0, 9.5, 100.0, 7.0, 2.5], dtype=np.float32), np.zeros(9, dtype=np.float32)) -> None ; arg1 == [0.0, 0.0, 0.25, 0.5, 1.25, 2.25, 2.25, 2.0, 0.875]
@njit
def bands_f32(x, out):
    for i in range(len(x)):
        v = x[i]
        if v < np.float32(0.0):
            r = np.float32(0.0)
        elif v < np.float32(1.0):
            r = v * np.float32(0.5)
        elif v < np.float32(8.0):
            r = np.float32(0.5) + (v - np.float32(1.0)) * np.float32(0.25)
        else:
            r = np.float32(2.25)
        out[i] = r
