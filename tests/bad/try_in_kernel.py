# expect-error: `try` in GPU code is not supported
from numba import cuda


@cuda.jit
def guarded_copy(src, dst):
    i = cuda.grid(1)
    try:  # <-- here
        dst[i] = src[i]
    except Exception:
        pass
