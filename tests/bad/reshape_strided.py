# expect-error: reshape() supports contiguous array only
import numpy as np
from numba import njit


@njit("float64[:, :](float64[::1])")
def every_other_as_matrix(a):
    return a[::2].reshape((2, 2))  # <-- here
