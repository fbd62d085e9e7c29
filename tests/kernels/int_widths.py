"""Integer widths: int8 int16 uint8 uint16 uint32 uint64 scalars and arrays, with Numba's
promotion rules (arithmetic in 64 bits, unsigned only when both operands are; NumPy's
promotion for min/max, comparisons and array expressions)."""

import numpy as np
from numba import njit, uint8, uint64, int16


# --- scalars: promotion ---------------------------------------------------------------


@njit
def add_u8(a, b):
    # uint8 + uint8 computes in uint64: no wrap at 256
    return a + b


# check: add_u8(np.uint8(200), np.uint8(100)) -> 300
# check: add_u8(np.uint8(255), np.uint8(1)) -> 256


@njit
def sub_unsigned(a, b):
    # uint64 - uint64 wraps around
    return a - b


# check: sub_unsigned(np.uint64(1), np.uint64(2)) -> 18446744073709551615
# check: sub_unsigned(np.uint32(5), np.uint32(9)) -> 18446744073709551612


@njit
def mixed_sign(a, b):
    # uint32 - int32 is int64
    return a - b


# check: mixed_sign(np.uint32(5), np.int32(9)) -> -4
# check: mixed_sign(np.uint64(3), np.int64(10)) -> -7
# check: mixed_sign(np.int8(-100), np.uint8(200)) -> -300


@njit
def signedness_probe(x):
    # the literals are int64, so an unsigned x times 0 is an int64: -1, not 2**64-1
    return x * 0 - 1


# check: signedness_probe(np.uint8(3)) -> -1
# check: signedness_probe(np.uint16(3)) -> -1
# check: signedness_probe(np.int16(3)) -> -1
# check: signedness_probe(np.int8(3)) -> -1


@njit
def true_div(a, b):
    return a / b


# check: true_div(np.uint64(18446744073709551615), np.uint64(2)) -> 9.223372036854776e+18
# check: true_div(np.int8(-7), np.int8(2)) -> -3.5


@njit
def floor_div_mod(a, b):
    return a // b, a % b


# check: floor_div_mod(np.uint64(7), np.uint64(2)) -> (3, 1)
# check: floor_div_mod(np.int8(-7), np.int8(2)) -> (-4, 1)
# check: floor_div_mod(np.uint8(7), np.int8(-2)) -> (-4, -1)
# check: floor_div_mod(np.uint64(18446744073709551615), np.uint64(10)) -> (1844674407370955161, 5)


@njit
def div_by_zero_u(a, b):
    return a // b


# check: div_by_zero_u(np.uint64(7), np.uint64(0)) raises ZeroDivisionError


@njit
def shifts(x, k):
    return x << k, x >> k


# check: shifts(np.uint64(18446744073709551615), 60) -> (17293822569102704640, 15)
# check: shifts(np.int8(-128), 1) -> (-256, -64)
# check: shifts(np.uint8(255), 4) -> (4080, 15)
# check: shifts(np.uint32(1), 40) -> (1099511627776, 0)


@njit
def bit_ops(a, b):
    return a & b, a | b, a ^ b, ~a


# check: bit_ops(np.uint8(0b1100), np.uint8(0b1010)) -> (8, 14, 6, 243)
# check: bit_ops(np.int16(-1), np.int16(255)) -> (255, -1, -256, 0)


@njit
def negate(x):
    return -x


# check: negate(np.uint8(1)) -> 255
# check: negate(np.int8(-128)) -> -128


@njit
def powers(a, b):
    return a ** b


# check: powers(np.uint64(10), np.uint64(3)) -> 1000
# check: powers(np.uint64(2), np.uint64(64)) -> 0
# check: powers(np.int16(3), np.int16(4)) -> 81


@njit
def mixed_float(a, x):
    # int8/int16/uint8 with float32 stay float32; wider integers make float64
    return a * x


# check: mixed_float(np.int16(3), np.float32(0.1)) -> 0.30000001192092896
# check: mixed_float(np.uint16(3), np.float32(0.1)) -> 0.30000000447034836
# check: mixed_float(np.uint64(3), 0.5) -> 1.5


@njit
def compare_mixed(a, b):
    return a < b, a == b, a > b


# check: compare_mixed(np.int64(-1), np.uint64(1)) -> (True, False, False)
# check: compare_mixed(np.uint32(4294967295), np.int32(-1)) -> (False, False, True)
# check: compare_mixed(np.uint8(255), np.int8(-1)) -> (False, False, True)
# check: compare_mixed(np.uint64(18446744073709551615), np.int64(5)) -> (False, False, True)


@njit
def max_mixed(a, b):
    return max(a, b)


# check: max_mixed(np.uint8(3), np.int8(-1)) -> 3
# check: max_mixed(np.uint64(18446744073709551615), np.int64(-1)) -> 1.8446744073709552e+19
# check: max_mixed(np.uint16(7), np.uint16(9)) -> 9


@njit
def absolute(x):
    return abs(x)


# check: absolute(np.int8(-5)) -> 5
# check: absolute(np.int8(-128)) -> -128
# check: absolute(np.uint16(7)) -> 7


# --- scalars: conversions -----------------------------------------------------------------


@njit
def to_narrow(x):
    return np.uint8(x), np.int8(x), np.uint16(x), np.int16(x), np.uint32(x)


# check: to_narrow(300) -> (44, 44, 300, 300, 300)
# check: to_narrow(-1) -> (255, -1, 65535, -1, 4294967295)
# check: to_narrow(70000) -> (112, 112, 4464, 4464, 70000)
# check: to_narrow(300.7) -> (44, 44, 300, 300, 300)
# check: to_narrow(-1.5) -> (255, -1, 65535, -1, 4294967295)


@njit
def to_uint64(x):
    return np.uint64(x)


# check: to_uint64(-1) -> 18446744073709551615
# check: to_uint64(12345678901234.0) -> 12345678901234
# check: to_uint64(1.5e19) -> 15000000000000000000


@njit
def from_uint64(x):
    return float(x), np.float32(x), int(x)


# check: from_uint64(np.uint64(18446744073709551615)) -> (1.8446744073709552e+19, 1.8446744073709552e+19, 18446744073709551615)
# check: from_uint64(np.uint64(9223372036854788000)) -> (9.223372036854788e+18, 9.223372036854776e+18, 9223372036854788000)


@njit
def numba_type_casts(x):
    return uint8(x), int16(x), uint64(x)


# check: numba_type_casts(513) -> (1, 513, 513)
# check: numba_type_casts(-2) -> (254, -2, 18446744073709551614)


BIG = 18446744073709551615
HALF = 1 << 63


@njit
def big_constants(x):
    # module-level integers past int64 are uint64, as Numba types them
    return BIG - x, HALF + x


# check: big_constants(np.uint64(5)) -> (18446744073709551610, 9223372036854775813)


@njit
def literal_uint64():
    return 18446744073709551615 // 3


# check: literal_uint64() -> 6148914691236517205


@njit
def iinfo_limits():
    return np.iinfo(np.uint8).max, np.iinfo(np.int16).min, np.iinfo(np.uint32).max, np.iinfo(np.int8).bits


# check: iinfo_limits() -> (255, -32768, 4294967295, 8)


@njit
def uint64_max():
    return np.iinfo(np.uint64).max


# check: uint64_max() -> 18446744073709551615


# --- hashing with uint64 wraparound ------------------------------------------------------


@njit
def fnv1a(data):
    h = np.uint64(14695981039346656037)
    prime = np.uint64(1099511628211)
    for b in data:
        h = h ^ np.uint64(b)
        h = h * prime
    return h


# check: fnv1a(np.array([104, 101, 108, 108, 111], dtype=np.uint8)) -> 11831194018420276491
# check: fnv1a(np.zeros(0, dtype=np.uint8)) -> 14695981039346656037


@njit
def xorshift64(seed, n):
    x = np.uint64(seed)
    for _ in range(n):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
    return x


# check: xorshift64(88172645463325252, 5) -> 8204724074003728306


@njit
def popcount(x):
    c = 0
    while x:
        x &= x - np.uint64(1)
        c += 1
    return c


# check: popcount(np.uint64(18446744073709551615)) -> 64
# check: popcount(np.uint64(0b1011)) -> 3


# --- arrays of narrow integers -----------------------------------------------------------


@njit
def invert_image(img):
    out = np.empty_like(img)
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            out[i, j] = 255 - img[i, j]
    return out


# check: invert_image(np.array([[0, 10], [200, 255]], dtype=np.uint8)) -> [[255, 245], [55, 0]]


@njit
def brighten(img, k):
    # uint8 array plus an int64 scalar is an int64 array; clip, then back to uint8
    return np.clip(img + k, 0, 255).astype(np.uint8)


# check: brighten(np.array([10, 200, 250], dtype=np.uint8), 10) -> [20, 210, 255]


@njit
def wrap_sum(a):
    # uint8 array + uint8 array stays uint8 (NumPy's loop), so it wraps
    return a + a


# check: wrap_sum(np.array([100, 200, 3], dtype=np.uint8)) -> [200, 144, 6]


@njit
def promote_arrays(a, b):
    return a + b


# check: promote_arrays(np.array([100, 200], dtype=np.uint8), np.array([-1, 100], dtype=np.int8)) -> [99, 300]


@njit
def element_sum(a):
    # a[i] + a[j] is a uint64 scalar
    return a[0] + a[1]


# check: element_sum(np.array([200, 100], dtype=np.uint8)) -> 300


@njit
def reductions_u8(a):
    return a.sum(), a.max(), a.min(), a.mean()


# check: reductions_u8(np.array([250, 250, 10], dtype=np.uint8)) -> (510, 250, 10, 170.0)


@njit
def sum_int16(a):
    return np.sum(a), a.prod()


# check: sum_int16(np.array([30000, 30000, -2], dtype=np.int16)) -> (59998, -1800000000)


@njit
def cumsum_u8(a):
    return np.cumsum(a)


# check: cumsum_u8(np.array([200, 100, 50], dtype=np.uint8)) -> [200, 300, 350]


@njit
def histogram_u8(img):
    counts = np.zeros(256, dtype=np.int64)
    for v in img.ravel():
        counts[v] += 1
    return counts[0], counts[7], counts[255]


# check: histogram_u8(np.array([[7, 7, 0], [255, 7, 1]], dtype=np.uint8)) -> (1, 3, 1)


@njit
def store_wraps(a, x):
    a[0] = x
    return a[0]


# check: store_wraps(np.zeros(2, dtype=np.uint8), 300) -> 44
# check: store_wraps(np.zeros(2, dtype=np.int8), 200) -> -56
# check: store_wraps(np.zeros(2, dtype=np.uint16), -1) -> 65535


@njit
def alloc_dtypes(n):
    a = np.zeros(n, dtype=np.uint16)
    b = np.ones(n, np.int8)
    c = np.full(n, 7, dtype=np.uint32)
    d = np.arange(n).astype(np.int16)
    return a.sum() + b.sum() + c.sum() + d.sum()


# check: alloc_dtypes(4) -> 38


@njit
def string_dtype(n):
    a = np.zeros(n, dtype="uint8")
    a[0] = 250
    a[1] = 10
    return a + a


# check: string_dtype(3) -> [244, 20, 0]


@njit
def sqrt_u8(a):
    return np.sqrt(a)


# check: sqrt_u8(np.array([0, 4, 9], dtype=np.uint8)) -> [0.0, 2.0, 3.0]


@njit
def divide_small(a):
    return a / np.uint8(2)


# check: divide_small(np.array([1, 3], dtype=np.uint8)) -> [0.5, 1.5]


@njit
def negative_u8_array(a):
    return -a


# check: negative_u8_array(np.array([0, 1, 255], dtype=np.uint8)) -> [0, 255, 1]


@njit
def compare_u64_array(a, t):
    return (a > t).sum()


# check: compare_u64_array(np.array([1, 18446744073709551615, 5], dtype=np.uint64), np.uint64(4)) -> 2


@njit
def count_bits_u32(a):
    total = 0
    for x in a:
        v = x
        while v:
            total += v & np.uint32(1)
            v >>= np.uint32(1)
    return total


# check: count_bits_u32(np.array([4294967295, 1, 6], dtype=np.uint32)) -> 35
