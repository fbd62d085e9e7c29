# expect-error: NumPy's float power by 1.5 comes from the CPU's vector math library
import numpy as np
from numba import njit

# x ** 2 and x ** 0.5 are exact (NumPy squares and takes square roots); x ** 1.5 is not.
GROWTH = np.linspace(1.0, 2.0, 5) ** 1.5


@njit
def growth(i):
    return GROWTH[i]  # <-- here
