# expect-error: `time.time` cannot be called from compiled code
import time

import numpy as np
from numba import njit


@njit
def elapsed(a):
    t0 = time.time()  # <-- here
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s, time.time() - t0  # <-- here


if __name__ == "__main__":
    print(elapsed(np.ones(10)))
