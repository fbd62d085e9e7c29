# expect-error: CUDA ufuncs are not compiled; a kernel is the way
from numba import vectorize


@vectorize(["float32(float32, float32)"], target="cuda")  # <-- here
def axpy(x, y):
    return 2.0 * x + y
