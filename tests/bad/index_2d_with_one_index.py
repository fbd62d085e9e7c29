# expect-error: returns array(float64, 1, A) where the function returns float64 (m[i] is a row)
from numba import njit


@njit("float64(float64[:, :], int64)")
def row_head(m, i):
    return m[i]  # <-- here
