# expect-error: unsupported import 'os'
import os  # <-- here
from numba import njit


@njit
def cwd_len(n):
    return n * 2
