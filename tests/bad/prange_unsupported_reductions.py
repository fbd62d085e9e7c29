# expect-error: reductions take integers and floats: a complex sum and a bool flag are refused with the workaround
import numpy as np
from numba import njit, prange


@njit("complex128(complex128[:])", parallel=True)
def csum(z):
    s = 0j
    for i in prange(z.shape[0]):
        s += z[i]  # <-- here
    return s


@njit("boolean(float64[:])", parallel=True)
def anyneg(x):
    found = False
    for i in prange(x.shape[0]):
        if x[i] < 0:
            found = True  # <-- here
    return found
