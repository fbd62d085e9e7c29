# expect-error: the element function of a ufunc returns an array
import numpy as np
from numba import njit, vectorize


@vectorize
def spread(x):
    return np.full(3, x)


@njit("float64[:, :](float64[:])")
def caller(a):
    return spread(a)  # <-- here
