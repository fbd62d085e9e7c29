# expect-error: np.finfo of an integer dtype (Numba: "data type not inexact")
import numpy as np
from numba import njit


@njit
def eps():
    return np.finfo(np.int64).eps  # <-- here
