"""`numba.literal_unroll`: a loop over a tuple whose items have different types, compiled once
per item. twinjit unrolls it when the tuple's length is known before typing: a tuple literal,
a module-level tuple, or a local assigned once to a tuple literal."""
import numpy as np
from numba import literal_unroll, njit

WEIGHTS = (1, 0.5, True)


# check: mixed_sum(2.0) -> 6.25
@njit
def mixed_sum(x):
    t = (1, x, 3.25, False)
    s = 0.0
    for v in literal_unroll(t):
        s += v
    return s


# check: weighted(np.array([0.0, 1.0, 2.0])) -> 2.5
@njit
def weighted(a):
    acc = 0.0
    k = 0
    for w in literal_unroll(WEIGHTS):
        acc += w * a[k]
        k += 1
    return acc


# Arrays of different dtypes and dimensions in one tuple.
# check: sizes_and_sums(np.arange(4), np.ones((2, 3), dtype=np.float32)) -> (13, 18.0)
@njit
def sizes_and_sums(a, b):
    n = 0
    total = 0.0
    for arr in literal_unroll((a, b, a[1:])):
        n += arr.size
        total += arr.sum()
    return n, total


# A tuple parameter of one type is an ordinary loop over it.
# check: param_sum((1.5, 2.0, 4.0)) -> 7.5
@njit
def param_sum(t):
    s = 0.0
    for v in literal_unroll(t):
        s += v
    return s
