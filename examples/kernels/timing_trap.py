"""A user's timing script, as written for Numba: a plain Python helper, two @jit functions and
module-level driver code. The second function asks for `target_backend='cuda'`, which older
Numba accepted and silently ran on the CPU; twinjit refuses that function (with the
`@cuda.jit` form in its hint) and loads the rest.

    twinjit check examples/kernels/timing_trap.py          # exit 1: reports add_gpu
    twinjit run examples/kernels/timing_trap.py scaled_sum --arg x=x.npy --arg k=float64:2
"""
import timeit

import numpy as np
from numba import cuda, jit


def python_sum(x):
    return sum(x)


@jit
def scaled_sum(x, k):
    s = 0.0
    for i in range(x.shape[0]):
        s += k * x[i]
    return s


@jit(target_backend='cuda')
def scaled_sum_gpu(x, k):
    s = 0.0
    for i in range(x.shape[0]):
        s += k * x[i]
    return s


if __name__ == "__main__":
    x = np.ones(10_000_000)
    for f in (python_sum, scaled_sum, scaled_sum_gpu):
        print(f.__name__, timeit.timeit(lambda: f(x, 2.0) if f is not python_sum else f(x), number=3))
    print("cuda available:", cuda.is_available())
