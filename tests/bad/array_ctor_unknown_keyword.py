# expect-error: np.zeros() got an unexpected keyword argument 'dtpye'
import numpy as np
from numba import njit


@njit
def buffer(n):
    return np.zeros(n, dtpye=np.float32)  # <-- here
