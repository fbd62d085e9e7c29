# expect-error: cuda.grid is a CUDA intrinsic and cannot be used in a host (@njit) function
from numba import cuda, njit


@njit("void(float64[:])")
def fill(a):
    i = cuda.grid(1)  # <-- here
    if i < a.shape[0]:
        a[i] = 1.0
