"""Module-level numeric constants read inside @njit functions (frozen at compile time)."""
import math
import numpy as np
from numba import njit, jit

N = 2**10
TPB = 128
SCALE = 0.5
NEG = -3
EPS = 1e-9
FLAG = True
BIG = 2**40
TAU = 2.0 * math.pi
NBLOCKS = (N + TPB - 1) // TPB


# check: get_n() -> 1024
@njit
def get_n():
    return N


# check: blocks_for(1000) -> 8
# check: blocks_for(128) -> 1
# check: blocks_for(0) -> 0
@njit
def blocks_for(n):
    return (n + TPB - 1) // TPB


# check: scaled(4.0) -> 2.0
# check: scaled(-3) -> -1.5
@njit
def scaled(x):
    return x * SCALE


# check: all_constants() -> (1024, 128, 0.5, -3, True, 1099511627776, 8)
@njit
def all_constants():
    return N, TPB, SCALE, NEG, FLAG, BIG, NBLOCKS


# check: tau_times(1.0) -> 6.283185307179586
# check: tau_times(0.5) -> 3.141592653589793
@njit
def tau_times(x):
    return TAU * x


# check: near_zero(1e-10) -> True
# check: near_zero(-1e-8) -> False
@jit(nopython=True)
def near_zero(x):
    return abs(x) < EPS


# check: count_blocks_loop() -> 8
@njit
def count_blocks_loop():
    c = 0
    for start in range(0, N, TPB):
        c += 1
    return c


# check: flag_select(2.0) -> -6.0
# check: flag_select(-0.5) -> 1.5
@njit
def flag_select(x):
    if FLAG:
        return x * NEG
    return x


# check: fill_scaled(np.zeros(4)) -> 512 ; arg0 == [-1.5, -1.0, -0.5, 0.0]
# check: fill_scaled(np.zeros(1)) -> 128 ; arg0 == [-1.5]
@njit
def fill_scaled(out):
    for i in range(out.shape[0]):
        out[i] = (i + NEG) * SCALE
    return out.shape[0] * TPB


# check: big_mod(12345678901234) -> 251050995698
# check: big_mod(-1) -> 1099511627775
@njit
def big_mod(x):
    return x % BIG


# check: const_pow() -> 8192
@njit
def const_pow():
    return N ** 2 // TPB


# Dtypes bound at module level, as configuration: a NumPy type, a Numba type, a dtype object.
INDEX_T = np.int32
import numba  # noqa: E402

SAMPLE_T = numba.float32
COUNT_T = np.dtype("uint16")


# check: typed_buffers(3) -> ([0, 2, 4], [0.0, 0.3333333432674408, 0.6666666865348816], [7, 7, 7], 4)
@njit
def typed_buffers(n):
    idx = np.zeros(n, INDEX_T)
    samples = np.ones(n, dtype=SAMPLE_T)
    counts = np.full(n, 7, COUNT_T)
    for i in range(n):
        idx[i] = i * 2
        samples[i] = SAMPLE_T(i) / 3
    return idx, samples, counts, INDEX_T(n) + INDEX_T(1)
