# expect-error: a histogram's bins are shared by the iterations that fall into them
import numpy as np
from numba import njit, prange


@njit("int64[:](float64[:], int64)", parallel=True)
def hist(x, nbins):
    counts = np.zeros(nbins, dtype=np.int64)
    for i in prange(x.shape[0]):
        b = int(x[i] * nbins)
        counts[b] += 1  # <-- here
    return counts
