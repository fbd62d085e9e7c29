"""User ufuncs: @vectorize with signature lists and lazily, on numbers and arrays with
broadcasting, the loop NumPy's type resolution picks, `out=`, called from @njit code (also
inside array expressions), target='parallel'; @guvectorize with layouts `(n),()->(n)`,
`(n),(n)->()`, `(m,n),(n)->(m)`, several outputs, lazily with the output passed, and its
core-dimension errors."""
import math

import numpy as np
from numba import float32, float64, guvectorize, int32, int64, njit, vectorize


# ---------------------------------------------------------------- @vectorize


# check: rel_diff(np.array([1.0, 2.0, 0.0, -3.0]), np.array([1.5, 2.0, 0.0, 3.0])) -> [0.2, 0.0, 0.0, 1.0]
# check: rel_diff(4.0, 5.0) -> 0.1111111111111111
# check: rel_diff(np.arange(4, dtype=np.float32), np.full(4, 2.0, dtype=np.float32)) -> [1.0, 0.3333333333333333, 0.0, 0.2]
# check: rel_diff(np.arange(3), 1) -> [1.0, 0.0, 0.3333333333333333]
@vectorize(["float64(float64, float64)", "float32(float32, float32)"])
def rel_diff(x, y):
    """Relative difference, 0 where both are 0."""
    d = abs(x) + abs(y)
    if d == 0:
        return 0
    return abs(x - y) / d


# check: logistic(np.array([-2.0, 0.0, 0.5, 40.0])) -> [0.11920292202211755, 0.5, 0.6224593312018546, 1.0]
# check: logistic(np.array([[0.0, 1.0], [-1.0, 3.0]])) -> [[0.5, 0.7310585786300049], [0.2689414213699951, 0.9525741268224334]]
# check: logistic(0) -> 0.5
@vectorize("float64(float64)")
def logistic(x):
    return 1.0 / (1.0 + math.exp(-x))


# check: soft_clip(np.array([-3, 0, 4]), 2) -> [-2, 0, 2]
# check: soft_clip(7, 3) -> 3
# check: soft_clip(np.array([-3.0, -0.5, 0.25, 2.0]), 1.0) -> [-1.0, -0.5, 0.25, 1.0]
# check: soft_clip(np.arange(6, dtype=np.float32).reshape(2, 3), np.float32(2.5)) -> [[0.0, 1.0, 2.0], [2.5, 2.5, 2.5]]
@vectorize
def soft_clip(x, limit):
    """Lazy: compiled for the types it is called with. (Numba's lazy ufunc first tries the
    loops it already has, so the integer calls come first here: twinjit compiles a loop per
    input types, as a dispatcher does.)"""
    if x > limit:
        return limit
    if x < -limit:
        return -limit
    return x


# check: gcd(np.array([12, 18, 7, 0]), np.array([8, 27, 5, 9])) -> [4, 9, 1, 9]
# check: gcd(np.array([[12], [30]]), np.array([4, 9, 25])) -> [[4, 3, 1], [2, 3, 5]]
# check: gcd(84, 36) -> 12
@vectorize([int64(int64, int64)])
def gcd(a, b):
    """Euclid's algorithm with a loop in the element function."""
    while b != 0:
        a, b = b, a % b
    return a


# check: pick_loop(np.arange(3, dtype=np.int16), np.int16(1)) -> [1, 11, 21]
# check: pick_loop(np.arange(3, dtype=np.int32), np.int32(2)) -> [2, 12, 22]
# check: pick_loop(np.arange(3), 1) -> [1.0, 11.0, 21.0]
# check: pick_loop(np.arange(3, dtype=np.int32), 2) -> [2, 12, 22]
# check: pick_loop(np.array([0.5, 1.5]), 1) -> [6.0, 16.0]
@vectorize(["int32(int32, int32)", "float64(float64, float64)"])
def pick_loop(x, y):
    """The first loop every input casts to safely: int64 does not fit int32, but a Python int
    beside an int32 array does (NumPy 2's weak scalars, NEP 50)."""
    return x * 10 + y


# check: outer_sum(np.array([[1.0], [2.0], [3.0]]), np.array([10.0, 20.0])) -> [[11.0, 21.0], [12.0, 22.0], [13.0, 23.0]]
# check: outer_sum(np.zeros((2, 0)), np.zeros(0)) -> [[], []]
# check: outer_sum(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0])) raises ValueError
@vectorize(["float64(float64, float64)"])
def outer_sum(x, y):
    return x + y


# check: into_out(np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.5, 0.5]), np.zeros(3)) -> [-0.5, 0.0, 0.5] ; arg2 == [-0.5, 0.0, 0.5]
# check: into_out(np.array([1.0, 2.0]), 3.0, np.zeros((2, 2))) -> [[2.0, 5.0], [2.0, 5.0]] ; arg2 == [[2.0, 5.0], [2.0, 5.0]]
@vectorize(["float64(float64, float64)"])
def into_out(x, y):
    return x * y - 1.0


# check: double_par(np.arange(10, dtype=np.float64)) -> [0.0, 3.0, 5.414213562373095, 7.732050807568877, 10.0, 12.23606797749979, 14.449489742783179, 16.64575131106459, 18.82842712474619, 21.0]
# check: double_par(np.arange(12, dtype=np.float64).reshape(3, 4)) -> [[0.0, 3.0, 5.414213562373095, 7.732050807568877], [10.0, 12.23606797749979, 14.449489742783179, 16.64575131106459], [18.82842712474619, 21.0, 23.162277660168378, 25.316624790355398]]
# check: double_par(np.zeros(0)) -> []
@vectorize(["float64(float64)"], target="parallel")
def double_par(x):
    return 2.0 * x + math.sqrt(abs(x))


# ---------------------------------------------------------------- called from @njit


# check: njit_uses(np.array([1.0, 2.0, 4.0]), np.array([1.0, 1.0, 1.0])) -> ([0.0, 0.3333333333333333, 0.6], [1.0, 2.0, 2.0], [11.0, 21.0, 41.0], 0.5, 3, 34.0)
# check: njit_uses(np.arange(3), np.arange(3)) -> ([0.0, 0.0, 0.0], [0, 1, 2], [1.0, 11.0, 21.0], 0.5, 3, 34.0)
@njit
def njit_uses(a, b):
    """Ufuncs on arrays and numbers inside compiled code."""
    return rel_diff(a, b), soft_clip(a, 2), pick_loop(a, 1), rel_diff(1, 3), soft_clip(5, 3), pick_loop(np.int64(3), 4)


# check: njit_expr(np.array([0.0, 1.0, -1.0]), np.array([2.0, 2.0, 2.0])) -> ([1.0, 0.4621171572600098, 1.5378828427399902], 11)
@njit
def njit_expr(a, b):
    """A ufunc as part of an array expression, and reduced."""
    y = logistic(a) * 2.0 - soft_clip(a, b)
    return y, np.sum(gcd(np.arange(1, 7), 4))


# check: njit_scalar_loop(np.array([0.5, -1.0, 3.0])) -> 2.343974879394283
@njit
def njit_scalar_loop(x):
    """A ufunc called on numbers in a loop."""
    s = 0.0
    for i in range(x.shape[0]):
        s += logistic(x[i]) + soft_clip(x[i], 1.0)
    return s


# check: njit_out(np.array([1.0, 2.0, 3.0])) -> [-1.0, 5.0, 15.0]
@njit
def njit_out(x):
    """An output array from compiled code (Numba takes it by position only there)."""
    buf = np.empty_like(x)
    into_out(x, x, buf)
    into_out(buf, 2.0, buf)
    return buf


# ---------------------------------------------------------------- @guvectorize


# check: shift_add(np.array([1.0, 2.0, 3.0]), 2.0) -> [3.0, 4.0, 5.0]
# check: shift_add(np.arange(6, dtype=np.float64).reshape(2, 3), np.array([10.0, 20.0])) -> [[10.0, 11.0, 12.0], [23.0, 24.0, 25.0]]
# check: shift_add(np.arange(3), 1.5) -> [1.5, 2.5, 3.5]
@guvectorize([(float64[:], float64, float64[:])], "(n),()->(n)")
def shift_add(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y


# check: row_dot(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])) -> 32.0
# check: row_dot(np.arange(6, dtype=np.float64).reshape(2, 3), np.array([1.0, 0.0, -1.0])) -> [-2.0, -2.0]
# check: row_dot(np.arange(6, dtype=np.float32).reshape(3, 2), np.arange(2, dtype=np.float32)) -> [1.0, 3.0, 5.0]
# check: row_dot(np.arange(3, dtype=np.float64), np.arange(4, dtype=np.float64)) raises ValueError
@guvectorize(["void(float64[:], float64[:], float64[:])", "void(float32[:], float32[:], float32[:])"], "(n),(n)->()")
def row_dot(x, y, res):
    """A scalar output is written through a 1-element array."""
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * y[i]
    res[0] = s


# check: matvec(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), np.array([1.0, -1.0])) -> [-1.0, -1.0, -1.0]
# check: matvec(np.arange(12, dtype=np.float64).reshape(2, 3, 2), np.array([1.0, 2.0])) -> [[2.0, 8.0, 14.0], [20.0, 26.0, 32.0]]
@guvectorize(["void(float64[:, :], float64[:], float64[:])"], "(m,n),(n)->(m)")
def matvec(a, v, out):
    for i in range(a.shape[0]):
        acc = 0.0
        for j in range(a.shape[1]):
            acc += a[i, j] * v[j]
        out[i] = acc


# check: min_max(np.array([3.0, -1.0, 7.5, 2.0])) -> (-1.0, 7.5)
# check: min_max(np.array([[1.0, 5.0], [-2.0, 0.0], [4.0, 4.0]])) -> ([1.0, -2.0, 4.0], [5.0, 0.0, 4.0])
@guvectorize(["void(float64[:], float64[:], float64[:])"], "(n)->(),()")
def min_max(x, lo, hi):
    """Two outputs: a tuple comes back."""
    lo[0] = x[0]
    hi[0] = x[0]
    for v in x:
        if v < lo[0]:
            lo[0] = v
        if v > hi[0]:
            hi[0] = v


# check: cumulative(np.array([1.0, 2.0, 3.0, 4.0]), np.zeros(4)) -> [1.0, 3.0, 6.0, 10.0] ; arg1 == [1.0, 3.0, 6.0, 10.0]
# check: cumulative(np.array([[1, 2], [3, 4]]), np.zeros((2, 2), dtype=np.int64)) -> [[1, 3], [3, 7]] ; arg1 == [[1, 3], [3, 7]]
@guvectorize("(n)->(n)")
def cumulative(x, out):
    """Lazy: compiled for the arrays passed, the output among them."""
    acc = x[0] - x[0]
    for i in range(x.shape[0]):
        acc += x[i]
        out[i] = acc


# check: window_mean(np.arange(8, dtype=np.float64), 3) -> [math.nan, math.nan, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
@guvectorize([(float64[:], int64, float64[:])], "(n),()->(n)")
def window_mean(x, w, out):
    """A trailing moving average (NaN until the window is full)."""
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
        if i >= w:
            s -= x[i - w]
        out[i] = s / w if i >= w - 1 else np.nan


# check: row_sums_par(np.arange(12, dtype=np.float64).reshape(4, 3)) -> [3.0, 12.0, 21.0, 30.0]
# check: row_sums_par(np.arange(24, dtype=np.float64).reshape(2, 3, 4)) -> [[6.0, 22.0, 38.0], [54.0, 70.0, 86.0]]
# check: row_sums_par(np.arange(5, dtype=np.float64)) -> 10.0
@guvectorize([(float64[:], float64[:])], "(n)->()", target="parallel")
def row_sums_par(x, res):
    """target='parallel': the rows are shared out among threads."""
    s = 0.0
    for v in x:
        s += v
    res[0] = s


# ---------------------------------------------------------------- ufunc.reduce in compiled code


@vectorize(["float64(float64, float64)", "int64(int64, int64)"])
def larger(a, b):
    return a if a > b else b


# check: reduce_1d(np.array([3.0, 1.0, 4.0, 1.5])) -> 4.0
# check: reduce_1d(np.array([7, -2, 9, 4])) -> 9.0
# check: reduce_1d(np.array([2.5])) -> 2.5
# check: reduce_1d(np.zeros(0)) raises ValueError: zero-size array to reduction operation larger which has no identity
@njit
def reduce_1d(a):
    return larger.reduce(a)


# check: reduce_axes(np.array([[1.0, 8.0, 3.0], [4.0, 2.0, 6.0]])) -> ([8.0, 6.0], 6)
# check: reduce_axes(np.arange(12, dtype=np.float64).reshape(3, 4)) -> ([3.0, 7.0, 11.0], 6)
@njit
def reduce_axes(a):
    """Along each row of a 2-D array (Numba 0.68 fails to lower the default axis 0 of a 2-D
    array; twinjit compiles it too)."""
    return larger.reduce(a, axis=1), gcd.reduce(np.array([12, 18, 30]))


# check: scale_by(np.arange(4, dtype=np.int32), 3) -> [0, 3, 6, 9]
# check: scale_by(np.arange(6, dtype=np.int32).reshape(2, 3), np.array([2, 5], dtype=np.int32)) -> [[0, 2, 4], [15, 20, 25]]
@guvectorize(["void(int32[:], int32[:], int32[:])"], "(n),()->(n)")
def scale_by(x, k, out):
    """A `()` input declared as an array: each loop index sees a 1-element array."""
    for i in range(x.shape[0]):
        out[i] = x[i] * k[0]


# check: clip_negatives(np.array([1.5, -2.0, 3.0, -0.5])) -> 2.0 ; arg0 == [1.5, 0.0, 3.0, 0.0]
# check: clip_negatives(np.array([[1.0, -1.0], [-3.0, 2.0]], dtype=np.float32)) -> [1.0, 1.0] ; arg0 == [[1.0, 0.0], [0.0, 2.0]]
@guvectorize([(float64[:], float64[:])], "(n)->()", writable_args=("x",))
def clip_negatives(x, count):
    """Zeroes the negative entries of its input in place and counts them; with writable_args
    the writes reach a float32 input too (through the converted copy)."""
    c = 0.0
    for i in range(x.shape[0]):
        if x[i] < 0:
            x[i] = 0.0
            c += 1.0
    count[0] = c


@vectorize(["float64(float64, float64)"], identity=0)
def either(p, q):
    """The probability that either of two independent events happens."""
    return p + q - p * q


# check: any_event(np.array([0.5, 0.5])) -> 0.75
# check: any_event(np.array([0.1, 0.2, 0.3])) -> 0.49600000000000005
# check: any_event(np.zeros(0)) -> 0.0
@njit
def any_event(p):
    """With an identity, `reduce` starts from it (and an empty array gives it)."""
    return either.reduce(p)


# check: ufunc_attributes() -> (2, 1, 3, 0, 3)
@njit
def ufunc_attributes():
    return either.nin, either.nout, either.nargs, either.identity, gcd.nargs
