# expect-error: `os.getpid` cannot be called from compiled code (importing `os` is fine)
import os
from numba import njit


@njit
def cwd_len(n):
    return n * os.getpid()  # <-- here
