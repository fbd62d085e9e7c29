"""Tuples as values in kernels: runtime indexing of a homogeneous tuple, len, slicing,
concatenation, comparison, `in`, iteration over a tuple variable, `*args` device functions
and `f(*t)` calls.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import numpy as np
from numba import cuda


@cuda.jit(device=True)
def weighted(a, b, c):
    return a * 100.0 + b * 10.0 + c


@cuda.jit(device=True)
def total(*args):
    s = 0.0
    for x in args:
        s += x
    return s


# Each thread picks a weight by a runtime index into a tuple.
# check: pick_weight[1, 8](np.zeros(8)) -> None ; arg0 == [1.0, 20.0, 300.0, 4000.0, 56.0, 20.0, 300.0, 4000.0]
@cuda.jit
def pick_weight(out):
    i = cuda.grid(1)
    w = (1.0, 2.0, 3.0, 4.0)
    k = i % len(w)
    scale = (1.0, 10.0, 100.0, 1000.0)
    if i < out.size:
        v = w[k] * scale[k]
        if i == 4:
            t = w[1:] + (w[0],)
            v = weighted(*t[::-1][1:]) / 8.0
            if t > w and 2.0 in t:
                v = total(v, 0.0, 0.5, 1.5)
        out[i] = v
