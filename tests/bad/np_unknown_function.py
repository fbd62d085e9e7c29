# expect-error: a NumPy function twinjit does not compile on scalars; the hint lists those it does
import numpy as np
from numba import njit


@njit
def f(x):
    return np.gradient(x)  # <-- here
