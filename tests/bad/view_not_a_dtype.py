# expect-error: a.view() takes a dtype (NumPy's array subclasses are not supported)
import numpy as np
from numba import njit


@njit("float64[:](float64[:])")
def as_other(a):
    return a.view(a)  # <-- here
