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


@vectorize(["float64(float64)"])
def income_tax(income):
    # A piecewise function (SQL would write a CASE): on random incomes its branches are
    # unpredictable, so the loop must run it without them.
    if income <= 12570.0:
        return 0.0
    elif income <= 50270.0:
        return (income - 12570.0) * 0.2
    elif income <= 125140.0:
        return 7540.0 + (income - 50270.0) * 0.4
    return 37488.0 + (income - 125140.0) * 0.45


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
