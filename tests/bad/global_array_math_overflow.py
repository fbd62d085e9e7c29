# expect-error: global `SHIFTED` (assigned at global_array_math_overflow.py:6) is a NumPy array (`np.arange(4, dtype=np.int8) + 1000`) that twinjit cannot compute: the integer 1000 out of bounds for int8
import numpy as np
from numba import njit

# NumPy 2 raises OverflowError here: a Python int takes the array's dtype.
SHIFTED = np.arange(4, dtype=np.int8) + 1000


@njit
def first():
    return SHIFTED[0]  # <-- here
