"""User ufuncs for the ufunc benchmark (`benches/compare/compare_ufunc.py`): the same file runs
under Numba and under twinjit."""
import math

from numba import float64, guvectorize, vectorize


@vectorize(["float64(float64, float64)", "float32(float32, float32)"])
def hypot2(x, y):
    return math.sqrt(x * x + y * y)


@vectorize
def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@vectorize(["float64(float64)"], target="parallel")
def softplus(x):
    if x > 30.0:
        return x
    return math.log1p(math.exp(x))


@vectorize(["float64(float64)"])
def softplus_serial(x):
    if x > 30.0:
        return x
    return math.log1p(math.exp(x))


@guvectorize([(float64[:], float64[:])], "(n)->()")
def row_norm(x, res):
    s = 0.0
    for v in x:
        s += v * v
    res[0] = math.sqrt(s)
