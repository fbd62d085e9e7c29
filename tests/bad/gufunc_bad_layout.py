# expect-error: the layout string is not closed
from numba import guvectorize


@guvectorize(["void(float64[:], float64[:])"], "(n)->(n")  # <-- here
def copy(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i]
