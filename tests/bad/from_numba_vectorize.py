# expect-error: importing `vectorize` is fine, but @vectorize is not a decorator twinjit compiles
from numba import vectorize


@vectorize  # <-- here
def relu(x):
    return max(x, 0.0)
