# expect-error: a 2-D array needs 2 indices, found 1 (row views are not supported)
from numba import njit


@njit("float64(float64[:, :], int64)")
def row_head(m, i):
    return m[i]  # <-- here
