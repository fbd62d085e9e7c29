"""Plain Python functions compiled by calling Numba's decorators on them at module level, the
way a module keeps both versions (`fast = njit(slow)`), adds options
(`njit(f, fastmath=True)`, `jit(nopython=True)(f)`) or declares signatures
(`njit("float64(float64[:])")(f)`), makes ufuncs (`vectorize([...])(f)`,
`guvectorize([...], "(n)->()")(f)`), and `f = njit(f)` rebinds the name."""
import math
import numpy as np
import numba
from numba import guvectorize, jit, njit, vectorize


def norm_py(x):
    s = 0.0
    for v in x:
        s += v * v
    return math.sqrt(s)


def clamp_py(v, lo, hi):
    return min(max(v, lo), hi)


def digit_sum(n):
    total = 0
    n = abs(n)
    while n > 0:
        total += n % 10
        n //= 10
    return total


def affine_py(x, k):
    return k * x + 1.0


def total_py(a, out):
    s = 0.0
    for v in a:
        s += v
    out[0] = s


affine = vectorize(["float64(float64, float64)", "float32(float32, float32)"])(affine_py)
affine_lazy = vectorize(affine_py)
total = guvectorize(["void(float64[:], float64[:])"], "(n)->()")(total_py)
norm = njit(norm_py)
norm_fast = njit(norm_py, fastmath=True)
norm_sig = njit("float64(float64[:])")(norm_py)
clamp = jit(nopython=True)(clamp_py)
clamp_cached = numba.njit(cache=True)(clamp_py)
digit_sum = njit(digit_sum)


@njit
def clamp_all(x, lo, hi):
    out = np.empty_like(x)
    for i in range(x.size):
        out[i] = clamp(x[i], lo, hi)
    return out


@njit
def largest_digit_sum(n):
    best, arg = 0, 0
    for k in range(n + 1):
        s = digit_sum(k)
        if s > best:
            best, arg = s, k
    return arg, best


# check: norm(np.array([3.0, 4.0])) -> 5.0
# check: norm_fast(np.array([1.0, 2.0, 2.0])) -> 3.0
# check: norm_sig(np.array([6.0, 8.0])) -> 10.0
# check: clamp(7, 0, 5) -> 5
# check: clamp_cached(-1.5, -1.0, 1.0) -> -1.0
# check: clamp_all(np.array([-2.0, 0.5, 3.0]), -1.0, 1.0) -> [-1.0, 0.5, 1.0]
# check: digit_sum(-9876) -> 30
# check: largest_digit_sum(150) -> (99, 18)
# check: affine(np.array([1.0, 2.0, 3.0]), 2.0) -> [3.0, 5.0, 7.0]
# check: affine_lazy(np.array([1, 2, 3]), 3) -> [4.0, 7.0, 10.0]
# check: total(np.array([[1.0, 2.0], [3.0, 4.5]])) -> [3.0, 7.5]
