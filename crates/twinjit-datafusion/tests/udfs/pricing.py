"""UDFs for the DataFusion tests, written as a Numba user writes a module: scalar functions,
a ufunc with a signature list, aggregates over a column, and driver code at module level.
The same file runs under Numba (`python pricing.py`)."""
import math

import numpy as np
from numba import njit, vectorize

BASIC_LIMIT = 50270.0


@vectorize(["float64(float64, float64)", "float32(float32, float32)"])
def hypot2(a, b):
    return math.sqrt(a * a + b * b)


@vectorize
def lerp(a, b, t):
    return a + (b - a) * t


@njit
def tax_due(income):
    # A piecewise function: SQL spells it as a long CASE.
    if income <= 12570.0:
        return 0.0
    elif income <= BASIC_LIMIT:
        return (income - 12570.0) * 0.2
    elif income <= 125140.0:
        return 7540.0 + (income - BASIC_LIMIT) * 0.4
    return 7540.0 + 29948.0 + (income - 125140.0) * 0.45


@njit
def ratio(a, b):
    return a / b


@njit
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@njit
def is_outlier(x, mean, sd):
    return abs(x - mean) > 3.0 * sd


@njit("int64(int64)")
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@njit
def checked_sqrt(x):
    if x < 0.0:
        raise ValueError("negative input")
    return math.sqrt(x)


@njit
def value_range(x):
    return x.max() - x.min()


@njit
def rms(x):
    s = 0.0
    for v in x:
        s += v * v
    return math.sqrt(s / len(x))


@njit
def count_above(x):
    n = 0
    for v in x:
        if v > 100:
            n += 1
    return n


@njit
def smooth(x):
    # Takes an array and returns one: neither a scalar UDF nor an aggregate.
    return np.cumsum(x)


if __name__ == "__main__":
    a = np.array([3.0, 5.0, -8.0])
    b = np.array([4.0, 12.0, 15.0])
    print(hypot2(a, b), lerp(a, b, 0.25))
    print([tax_due(v) for v in (10000.0, 30000.0, 60000.0, 200000.0)])
    print(clamp(15, 0, 10), is_outlier(10.0, 0.0, 1.0), collatz_steps(27))
    print(value_range(a), rms(a), count_above(np.array([50, 150, 250])))
    try:
        ratio(1.0, 0.0)
    except ZeroDivisionError as e:
        print("ZeroDivisionError:", e)
    try:
        checked_sqrt(-1.0)
    except ValueError as e:
        print("ValueError:", e)
