"""Module-level arrays computed from other arrays: normalised stencil weights, sample points,
reversed and strided tables, offsets. Numba runs the module and freezes the results; twinjit
computes them as NumPy does (dtype promotion with Python numbers as NumPy 2 types them,
integers wrapping to their width, float32 rounding after every operation)."""
import numpy as np
from numba import njit

KERNEL = np.array([1.0, 4.0, 6.0, 4.0, 1.0]) / 16.0
SAMPLES = np.linspace(0.0, 1.0, 11) ** 2
OFFSETS = np.arange(-3, 4) * 2
REVERSED = np.array([1, 2, 3, 4])[::-1]
ODD = np.arange(20)[1::2]
CENTRED = np.arange(9, dtype=np.float32).reshape(3, 3) - 4.0
CORNERS = np.arange(12).reshape(3, 4)[1:, ::-2] // 3
WRAP8 = np.arange(12, dtype=np.int8) * 20 + 7
UNDER = np.arange(6, dtype=np.uint8) - 3
MODS = np.arange(1, 13, dtype=np.float32).reshape(3, 4) % -2.5
FLOORS = np.arange(-6, 7) // 4
RATIOS = np.arange(8) / np.arange(1, 9)
OUTER = np.arange(4).reshape(4, 1) * np.arange(3)
ROTATED = (np.arange(6, dtype=np.complex64) + 1j) / 2j
PHASORS = (np.arange(4, dtype=np.complex128) * (0.3 + 0.7j)) * (1.1 - 0.2j)
NEGATED = -KERNEL
SYMMETRIC = KERNEL * 2 + KERNEL[::-1]
CUBES = np.arange(5) ** 3
ROOTS = np.arange(1, 5, dtype=np.float32) ** 0.5
FORTRAN = np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3))
ROW = np.arange(12).reshape(3, 4)[1]
COLUMN = np.arange(12).reshape(3, 4)[:, -1]


@njit
def smooth(x, i):
    s = 0.0
    for k in range(KERNEL.shape[0]):
        s += KERNEL[k] * x[i + k - 2]
    return s


@njit
def sample_sum():
    s = 0.0
    for v in SAMPLES:
        s += v
    return s, SAMPLES[3]


@njit
def table_values():
    return OFFSETS[0], OFFSETS[6], REVERSED[0], ODD[9], CENTRED[2, 2], CORNERS[1, 1], CORNERS.shape[1]


@njit
def wrapped_ints():
    return WRAP8[6], WRAP8[11], UNDER[0], UNDER[5], FLOORS[0], FLOORS[12], CUBES[4]


@njit
def float_results():
    return MODS[0, 0], MODS[2, 3], RATIOS[5], OUTER[3, 2], ROOTS[1], NEGATED[2], SYMMETRIC[0]


@njit
def complex_results():
    return ROTATED[0], ROTATED[5], PHASORS[3]


@njit
def layout_free(i, j):
    return FORTRAN[i, j] + ROW[j] + COLUMN[i]


# check: smooth(np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]), 4) -> 4.0
# check: smooth(np.ones(7), 3) -> 1.0
# check: sample_sum() -> (3.8500000000000005, 0.09000000000000002)
# check: table_values() -> (-6, 6, 4, 19, 4.0, 3, 2)
# check: wrapped_ints() -> (127, -29, 253, 2, -2, 1, 64)
# check: float_results() -> (-1.5, -0.5, 0.8333333333333334, 6, 1.4142135381698608, -0.375, 0.1875)
# check: complex_results() -> ((0.5+0j), (0.5-2.5j), (1.41+2.1299999999999994j))
# check: layout_free(1, 2) -> 18
