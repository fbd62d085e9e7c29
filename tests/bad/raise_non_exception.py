# expect-error: `Config` is not an exception class compiled code can raise
from numba import njit


class Config:
    pass


@njit
def check(x):
    if x < 0:
        raise Config("bad")  # <-- here
    return x
