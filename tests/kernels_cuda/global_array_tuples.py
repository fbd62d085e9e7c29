"""A kernel that reduces each array of a module-level tuple, as numba-cuda's array-reduction
tests do: `for case in literal_unroll(CASES)`, the arrays written with `np.float64([...])` and
`float("inf")` / `float("nan")`. Each array is frozen into the kernel.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import numpy as np
from numba import cuda
from numba.cuda.misc.special import literal_unroll

CASES = (
    np.float64([1.0, 0.0, float("inf"), float("nan")]),
    np.float64([[1.0, 1.5], [float("inf"), 0.0]]),
    np.int32([3, 0, 0, 7, 1]),
)


# check: reduce_cases[1, 1](np.zeros(3, dtype=np.int64), np.zeros(3)) -> None ; arg0 == [3, 3, 3] ; arg1 == [4.0, 4.0, 5.0]
@cuda.jit
def reduce_cases(counts, sums):
    i = 0
    for case in literal_unroll(CASES):
        counts[i] = np.count_nonzero(case)
        sums[i] = case.size
        i += 1
