# expect-error: a module-level array passed to a function that writes it is refused at the call
import numpy as np
from numba import njit

LUT = np.arange(256, dtype=np.uint8)


@njit
def invert(table):
    for i in range(table.shape[0]):
        table[i] = 255 - table[i]


@njit("uint8(int64)")
def inverted(i):
    invert(LUT)  # <-- here
    return LUT[i]
