"""Integer arithmetic: + - * / with int64 semantics (wraparound, true division)."""
from numba import njit, jit


# check: add_int(2, 3) -> 5
# check: add_int(-7, 4) -> -3
# check: add_int(9223372036854775807, 1) -> -9223372036854775808
@njit
def add_int(a, b):
    return a + b


# check: sub_int(10, 3) -> 7
# check: sub_int(-5, -8) -> 3
# check: sub_int(-9223372036854775808, 1) -> 9223372036854775807
@njit
def sub_int(a, b):
    return a - b


# check: mul_int(6, 7) -> 42
# check: mul_int(-3, 4) -> -12
# check: mul_int(4611686018427387904, 4) -> 0
# check: mul_int(3037000500, 3037000500) -> -9223372036709301616
@njit
def mul_int(a, b):
    return a * b


# The literal 2**62 is folded by CPython; the multiply by 4 wraps to 0 in int64.
# check: wrap_pow_mul() -> 0
@njit
def wrap_pow_mul():
    x = 2**62
    return x * 4


# check: true_div_int(7, 2) -> 3.5
# check: true_div_int(-7, 2) -> -3.5
# check: true_div_int(6, 3) -> 2.0
# check: true_div_int(1, 3) -> 0.3333333333333333
@njit
def true_div_int(a, b):
    return a / b


# check: mixed_int_float(3, 0.5) -> 4.5
# check: mixed_int_float(-2, 1.25) -> -4.5
@njit
def mixed_int_float(a, x):
    return a * x + a


# check: unary_ops(5) -> -456
# check: unary_ops(-3) -> 272
# check: unary_ops(0) -> -1
@njit
def unary_ops(a):
    b = -a
    c = +a
    d = ~a
    return b * 100 + c * 10 + d


# check: invert_int(0) -> -1
# check: invert_int(-1) -> 0
# check: invert_int(41) -> -42
@jit(nopython=True)
def invert_int(a):
    return ~a


# check: neg_min_int(-9223372036854775808) -> -9223372036854775808
# check: neg_min_int(5) -> -5
@njit
def neg_min_int(a):
    return -a


# check: poly_eval(2) -> 15
# check: poly_eval(-3) -> 40
# check: poly_eval(0) -> 7
@njit
def poly_eval(x):
    return 3 * x * x - 2 * x + 7


# check: aug_int_ops(10, 3) -> 324
# check: aug_int_ops(-10, 3) -> 976144
# check: aug_int_ops(7, -2) -> 992016
@njit
def aug_int_ops(a, b):
    x = a
    x += b
    x -= 1
    x *= b
    x //= 2
    x %= 1000
    x **= 2
    return x


# An int variable that is divided in place becomes a float.
# check: aug_true_div(5, 2) -> 2.5
# check: aug_true_div(-9, 4) -> -2.25
@njit
def aug_true_div(a, b):
    x = a
    x /= b
    return x


# check: bool_arith(True, True) -> 12
# check: bool_arith(True, False) -> 11
# check: bool_arith(False, False) -> 0
@njit
def bool_arith(p, q):
    return p + q + p * 10


# check: sum_squares(10) -> 285
# check: sum_squares(0) -> 0
# check: sum_squares(-4) -> 0
@njit
def sum_squares(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


# check: lcg_step(12345, 3) -> -2109864935417278554
# check: lcg_step(0, 10) -> 8237903092696572954
@njit
def lcg_step(seed, steps):
    x = seed
    for _ in range(steps):
        x = x * 6364136223846793005 + 1442695040888963407
    return x
