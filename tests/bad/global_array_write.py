# expect-error: Numba freezes a module-level array as a read-only constant, so writing it fails
import numpy as np
from numba import njit

counts = np.zeros(8, dtype=np.int64)


@njit("int64(int64[:])")
def tally(xs):
    for x in xs:
        counts[x % 8] += 1  # <-- here
    return counts.sum()
