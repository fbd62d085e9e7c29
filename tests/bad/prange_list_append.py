# expect-error: appending to one list from several threads at once corrupts it (Numba documents it as not thread-safe)
from numba import njit, prange


@njit("int64(int64)", parallel=True)
def collect(n):
    z = [0]
    for i in prange(n):
        z.append(i)  # <-- here
    return len(z)
