"""Module-level tuples of arrays, as Numba's own tests keep their cases: `CASES = (np.float64([...]),
np.int32([...]))`, iterated with `literal_unroll` (or a plain `for`, unrolled), with
`float("inf")` and `float("nan")` inside the lists. Numba freezes such a global when it
compiles the function; twinjit freezes each array, so reading them is a constant."""
import numpy as np
from numba import literal_unroll, njit

CASES = (
    np.float64([1.0, 0.0, float("inf"), float("nan")]),
    np.float64([[1.0, -0.0], [float("-inf"), 2.5]]),
    np.int32([3, 0, 0, 7, 1]),
    np.array([True, False, True]),
)

WEIGHTS = (np.arange(4.0), np.ones(3) * 0.5)

LIMITS = np.float32([float("inf"), -1.5, float("  1e3 ")])


# check: nonzero_counts() -> (3, 3, 3, 2)
@njit
def nonzero_counts():
    a, b, c, d = 0, 0, 0, 0
    k = 0
    for case in literal_unroll(CASES):
        n = np.count_nonzero(case)
        if k == 0:
            a = n
        elif k == 1:
            b = n
        elif k == 2:
            c = n
        else:
            d = n
        k += 1
    return a, b, c, d


# Sizes and sums of each array, in order, as one number per array.
# check: sizes_and_sums() -> [4.0, 4.0, 5.0, 3.0, 6.0, 1.5]
@njit
def sizes_and_sums():
    out = []
    for case in literal_unroll(CASES):
        out.append(float(case.size))
    for w in literal_unroll(WEIGHTS):
        out.append(np.sum(w))
    return out


# check: finite_sum(np.array([1.0, 2.0])) -> 3.0
# check: finite_sum(np.array([4.0])) -> 4.0
@njit
def finite_sum(x):
    s = 0.0
    for w in WEIGHTS:
        s += w[0] * 0.0
    for v in x:
        if v < LIMITS[0]:
            s += v
    return s + LIMITS[1] * 0.0 + (LIMITS[2] - 1000.0)
