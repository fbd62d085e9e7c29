"""np.float32 / np.float64 / np.int32 / np.int64 casts and mixed-width promotion."""
import numpy as np
from numba import njit


# check: to_f32_f64(0.1) -> (0.10000000149011612, 0.1)
# check: to_f32_f64(1.5) -> (1.5, 1.5)
# check: to_f32_f64(1e40) -> (math.inf, 1e+40)
# check: to_f32_f64(3) -> (3.0, 3.0)
# check: to_f32_f64(np.float32(0.1)) -> (0.10000000149011612, 0.10000000149011612)
# check: to_f32_f64(True) -> (1.0, 1.0)
@njit
def to_f32_f64(x):
    return np.float32(x), np.float64(x)


# check: to_i32(3.9) -> 3
# check: to_i32(-3.9) -> -3
# check: to_i32(2147483648) -> -2147483648
# check: to_i32(-2147483649) -> 2147483647
@njit
def to_i32(x):
    return np.int32(x)


# check: to_i64(-2.7) -> -2
# check: to_i64(np.int32(-5)) -> -5
# check: to_i64(1e15) -> 1000000000000000
@njit
def to_i64(x):
    return np.int64(x)


# float32 arithmetic rounds at every step.
# check: f32_roundtrip(0.1) -> 1.4901161138336505e-09
# check: f32_roundtrip(16777217.0) -> -1.0
@njit
def f32_roundtrip(x):
    y = np.float32(x)
    return np.float64(y) - x


# float32 * float64 literal promotes to float64.
# check: f32_times_11(1.5) -> 1.6500000000000001
# check: f32_times_11(0.1) -> 0.11000000163912774
@njit
def f32_times_11(x):
    y = np.float32(x)
    return y * 1.1


# float32 * float32 stays float32.
# check: f32_times_f32(1.1) -> 1.2100000381469727
# check: f32_times_f32(0.1) -> 0.11000000685453415
@njit
def f32_times_f32(x):
    y = np.float32(x)
    return y * np.float32(1.1)


# float32 combined with an int64 promotes to float64.
# check: f32_plus_int(0.1, 1) -> 1.1000000014901161
# check: f32_plus_int(1e-9, -1) -> -0.999999999
@njit
def f32_plus_int(x, n):
    return np.float32(x) + n


# int32 + int32 gives int64 under Numba (no 32-bit wraparound).
# check: i32_add(np.int32(2147483647), np.int32(1)) -> 2147483648
# check: i32_add(np.int32(-5), np.int32(7)) -> 2
@njit
def i32_add(a, b):
    return a + b


# Explicitly narrowing back to int32 wraps.
# check: i32_add_wrap(np.int32(2147483647), np.int32(1)) -> -2147483648
# check: i32_add_wrap(np.int32(100), np.int32(-1)) -> 99
@njit
def i32_add_wrap(a, b):
    return np.int32(a + b)


# check: i32_times_float(np.int32(3), 0.5) -> 1.5
# check: i32_times_float(np.int32(-7), 0.1) -> -0.7000000000000001
@njit
def i32_times_float(a, x):
    return a * x


# check: int_div_to_i32(7, 2) -> 3
# check: int_div_to_i32(-7, 2) -> -3
@njit
def int_div_to_i32(a, b):
    return np.int32(a / b)


# check: cast_chain(2.99) -> 2.0
# check: cast_chain(-2.99) -> -2.0
@njit
def cast_chain(x):
    return np.float64(np.int64(np.float32(x)))


# check: sum_as_f32(np.array([0.1, 0.2, 0.3])) -> 0.6000000238418579
# check: sum_as_f32(np.array([1e8, 1.0, -1e8])) -> 0.0
@njit
def sum_as_f32(a):
    s = np.float32(0.0)
    for i in range(a.shape[0]):
        s += np.float32(a[i])
    return s


# check: write_f32_from_f64(np.zeros(3, dtype=np.float32), 0.1) -> None ; arg0 == [0.10000000149011612, 0.20000000298023224, 0.30000001192092896]
# check: write_f32_from_f64(np.zeros(2, dtype=np.float32), 1e39) -> None ; arg0 == [math.inf, math.inf]
@njit
def write_f32_from_f64(out, x):
    for i in range(out.shape[0]):
        out[i] = x * (i + 1)


# (int32 elements summed into an int64: int_sum in tests/kernels/arrays_1d.py.)


# check: f32_arg_ops(np.float32(1.5), np.float32(0.1)) -> 14.0
# check: f32_arg_ops(np.float32(1.0), np.float32(3.0)) -> -0.6666666269302368
@njit
def f32_arg_ops(x, y):
    return x / y - np.float32(1.0)
