"""Default parameter values and keyword arguments: calls between compiled functions
(positional, keyword, mixed, omitted trailing parameters) and calls from outside that omit
defaulted arguments. Annotations are ignored, as Numba ignores them."""
import math

import numpy as np
from numba import njit

STEPS = 4
SCALE = 0.5


# Numba types each omitted default as the constant's type: int64, float64, bool.
# check: scaled(2.0) -> 6.0
# check: scaled(2.0, 5) -> 10.0
# check: scaled(2.0, 5, 0.25) -> 2.5
# check: scaled(2.0, 5, 0.25, False) -> -2.0
# check: scaled(3) -> 9.0
@njit
def scaled(x, n=3, scale=1.0, flag=True):
    if flag:
        return x * n * scale
    return -x


# check: by_keyword(1.5) -> (4.5, 3.0, 9.0, -1.5, 7.5, 1.5)
# check: by_keyword(-2.0) -> (-6.0, -4.0, -12.0, 2.0, -10.0, -2.0)
@njit
def by_keyword(a):
    return (
        scaled(a),
        scaled(a, 2),
        scaled(a, scale=2.0),
        scaled(a, 2, flag=False),
        scaled(x=a, n=5),
        scaled(scale=0.5, flag=True, x=a, n=2),
    )


# Keyword arguments are evaluated in source order, then bound by name.
# check: order_kept(7) -> 7.0
@njit
def order_kept(k):
    return scaled(scale=1.0, n=1, x=k)


# Defaults read module constants (frozen when the `def` runs) and fold constant expressions.
# check: integrate(0.0, 1.0) -> 0.5
# check: integrate(1.0, 3.0) -> 4.0
# check: integrate(1.0, 3.0, 8) -> 4.0
@njit
def integrate(lo, hi, steps=STEPS, weight=SCALE * 2, offset=-(2**2) + 4):
    h = (hi - lo) / steps
    s = 0.0
    for i in range(steps):
        s += (lo + (i + 0.5) * h) * h * weight + offset
    return s


# check: call_integrate(2.0) -> (2.0, 2.0, 0.0, 4.0)
@njit
def call_integrate(hi):
    return integrate(0.0, hi), integrate(0.0, hi, steps=2), integrate(0.0, hi, weight=0.0), integrate(0.0, hi, 2, 2.0)


# Annotations are ignored (Numba types from the arguments).
# check: annotated(np.array([1.0, -1.0, 1.0])) -> 2.0
# check: annotated(np.array([1.0, -1.0, 1.0]), 2.0) -> 4.0
@njit
def annotated(spins: np.ndarray, J: float = 1.0) -> float:
    e = 0.0
    for i in range(spins.shape[0] - 1):
        e += -J * spins[i] * spins[i + 1]
    return e


# check: annotated_caller(np.array([1.0, 1.0])) -> -3.5
@njit
def annotated_caller(a):
    return annotated(a) + annotated(a, J=2.5)


# A default whose type differs from what a caller passes: each call specialises.
# check: mixed_types(1) -> (2, 2.5, 4)
@njit
def mixed_types(x):
    return add_to(x), add_to(x, 1.5), add_to(x, step=x + 2)


# check: add_to(5) -> 6
# check: add_to(5, 0.5) -> 5.5
@njit
def add_to(x, step=1):
    return x + step


# A bool default steering control flow, with math in the body.
# check: norm2(3.0, 4.0) -> 5.0
# check: norm2(3.0, 4.0, False) -> 25.0
@njit
def norm2(x, y, root=True):
    s = x * x + y * y
    return math.sqrt(s) if root else s


# check: norms(6.0, 8.0) -> (10.0, 100.0, 10.0)
@njit
def norms(x, y):
    return norm2(x, y), norm2(x, y, root=False), norm2(y=y, x=x)


# Recursion through a defaulted accumulator.
# check: fact(5) -> 120
# check: fact(0) -> 1
# check: fact(10, 2) -> 7257600
@njit
def fact(n, acc=1):
    if n <= 1:
        return acc
    return fact(n - 1, acc=acc * n)


# A default that fills an array (arrays stay positional).
# check: fill(np.zeros(3)) -> None ; arg0 == [7.0, 7.0, 7.0]
# check: fill(np.zeros(2), 1.5) -> None ; arg0 == [1.5, 1.5]
@njit
def fill(out, value=7.0):
    for i in range(out.shape[0]):
        out[i] = value
