# expect-error: isinstance() with this class is not supported
import numpy as np
from numba import njit


@njit
def kind(x):
    return isinstance(x, np.ndarray)  # <-- here
