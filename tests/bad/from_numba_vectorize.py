# expect-error: two errors: `vectorize` cannot be imported from numba, and @vectorize is not a supported decorator
from numba import vectorize  # <-- here (error 1)


@vectorize  # <-- here (error 2)
def relu(x):
    return max(x, 0.0)
