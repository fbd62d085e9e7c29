"""print() in a kernel: numba-cuda's device printf (one line per print, integers as %lld /
%llu, floats as %f, strings as they are). The checks compare the array the kernel writes;
what it prints goes to the process's standard output.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import numpy as np
from numba import cuda


# check: report[1, 4](np.array([0.0, 1.0, 2.0, 3.0]), np.zeros(4)) -> None ; arg1 == [0.0, 2.0, 4.0, 6.0]
@cuda.jit
def report(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 2.0
        if i == 0:
            print("thread", i, "of", x.size, "value", out[i], "100% done", i < 1)
