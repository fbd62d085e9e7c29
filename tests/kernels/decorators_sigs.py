"""Decorator forms: explicit signature strings, jit(nopython=True), cache, boundscheck."""
import math
import numpy as np
from numba import njit, jit


# check: scale_sum(np.array([1.0, 2.0, 3.0]), 2) -> 12.0
# check: scale_sum(np.zeros(0), 5) -> 0.0
@njit("float64(float64[:], int64)")
def scale_sum(a, k):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * k
    return s


# check: add_ii(2, 3) -> 5
# check: add_ii(-9223372036854775807, -2) -> 9223372036854775807
@njit("int64(int64, int64)")
def add_ii(a, b):
    return a + b


# The explicit float64 signature converts int arguments at the call boundary.
# check: half(3.0) -> 1.5
# check: half(7) -> 3.5
@njit("float64(float64)")
def half(x):
    return x / 2


# check: f32_fma(np.float32(1.5), np.float32(2.0), np.float32(0.25)) -> 3.25
# check: f32_fma(np.float32(0.1), np.float32(0.1), np.float32(0.0)) -> 0.010000000707805157
@njit("float32(float32, float32, float32)")
def f32_fma(a, b, c):
    return a * b + c


# Return type float32 narrows a float64 result.
# check: narrow_to_f32(0.1) -> 0.30000001192092896
# check: narrow_to_f32(1.0) -> 3.0
@njit("float32(float64)")
def narrow_to_f32(x):
    return x * 3.0


# Return type int32 narrows an int64 result (wraps).
# check: narrow_to_i32(2147483647) -> -2147483648
# check: narrow_to_i32(5) -> 6
@njit("int32(int64)")
def narrow_to_i32(n):
    return n + 1


# check: fill_void(np.zeros(3), 1.5) -> None ; arg0 == [0.0, 1.5, 3.0]
# check: fill_void(np.zeros(0), 2.0) -> None ; arg0 == []
@njit("void(float64[:], float64)")
def fill_void(a, v):
    for i in range(a.shape[0]):
        a[i] = v * i


# check: sum2d_sig(np.array([[1, 2], [3, 4]])) -> 10
# check: sum2d_sig(np.zeros((2, 0), dtype=np.int64)) -> 0
@njit("int64(int64[:, :])")
def sum2d_sig(a):
    s = 0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    return s


# check: bool_sig(3.0, 2.0) -> True
# check: bool_sig(math.nan, 2.0) -> False
@njit("boolean(float64, float64)")
def bool_sig(x, y):
    return x > y


# check: i32_sig(np.int32(100000), np.int32(100000)) -> 10000000000
# check: i32_sig(np.int32(-3), np.int32(7)) -> -21
@njit("int64(int32, int32)")
def i32_sig(a, b):
    return a * b


# check: f32_array_sig(np.array([0.5, 0.25, 0.125], dtype=np.float32)) -> 0.875
# check: f32_array_sig(np.array([0.1], dtype=np.float32)) -> 0.10000000149011612
@njit("float64(float32[:])")
def f32_array_sig(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


# check: cube_3d_sig(np.ones((2, 2, 2))) -> 4.0
# check: cube_3d_sig(np.zeros((2, 2, 5))) -> 5.0
@njit("float64(float64[:, :, :])")
def cube_3d_sig(a):
    return a[0, 0, 0] + a[1, 1, 1] + a.shape[2]


# check: jit_nopython(3, 4) -> 9
# check: jit_nopython(2.5, 2) -> 2.5
@jit(nopython=True)
def jit_nopython(a, b):
    return a * b - a


# check: cached_poly(2.0) -> 4.0
# check: cached_poly(-1.0) -> 1.0
@njit(cache=True)
def cached_poly(x):
    return x * x * x - 2.0 * x


# check: cached_calls(3) -> 12
# check: cached_calls(-4) -> -16
@njit(cache=True)
def cached_calls(n):
    return add_ii(n, n) * 2


# check: checked_get(np.array([1.5, 2.5]), 1) -> 2.5
# check: checked_get(np.array([1.5, 2.5]), 2) raises IndexError
@njit(boundscheck=True)
def checked_get(a, i):
    return a[i]


# check: sig_calls_sig(np.array([1.0, 2.0])) -> 9.5
# check: sig_calls_sig(np.zeros(0)) -> 0.5
@njit("float64(float64[:])")
def sig_calls_sig(a):
    return scale_sum(a, 3) + half(1.0)


# check: unchecked_in_range(np.array([4, 5, 6]), 0) -> 4
# check: unchecked_in_range(np.array([4, 5, 6]), -1) -> 6
@njit
def unchecked_in_range(a, i):
    return a[i]
