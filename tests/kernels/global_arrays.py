"""Module-level NumPy arrays read inside @njit functions: Numba freezes them as read-only
constants when it compiles the function (lookup tables, stencil weights, coefficients)."""
import math
import numpy as np
from numba import njit

# A popcount lookup table for bytes, as bit-twiddling code writes it.
POPCOUNT = np.array([0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4], dtype=np.uint8)
# Stencil weights and polynomial coefficients.
WEIGHTS = np.array([0.25, 0.5, 0.25])
COEFFS = np.array([1.0, -0.5, 1.0 / 6.0, -1.0 / 24.0])
# A 2-D table and one built by reshape.
TABLE = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32)
GRID = np.arange(12).reshape(3, 4)
CUBE = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
# Other constructors.
RAMP = np.linspace(0.0, 1.0, 5)
RAMP_OPEN = np.linspace(-1, 1, 4, endpoint=False)
STEPS = np.arange(0.0, 1.0, 0.1)
STEPS32 = np.arange(0.5, 3, 0.25, dtype=np.float32)
DOWN = np.arange(10, 0, -3)
EYE = np.eye(3)
SHIFTED = np.eye(3, 4, k=1, dtype=np.int64)
FULL = np.full((2, 2), 7)
ONES = np.ones(4, dtype=np.int16)
ZEROS = np.zeros((2, 3))
MASK = np.array([True, False, True, True])
MIXED = np.array([1, 2.5, True])
TRANSPOSED = np.array([[1, 2, 3], [4, 5, 6]]).T
WRAPPED = np.array([200, 300, -1]).astype(np.uint8)
TRUNCATED = np.array([1.9, -1.9, 2.5]).astype(np.int32)
NESTED = np.array(((1.5, 2.5), (3.5, 4.5)))
SIZE = 4
BOUNDS = np.array([SIZE, 2 * SIZE, SIZE**2])
PHASES = np.array([0.0, math.pi / 2, math.pi])
EMPTY = np.zeros(0)


# check: popcount16(0) -> 0
# check: popcount16(65535) -> 16
# check: popcount16(43690) -> 8
# check: popcount16(4660) -> 5
@njit
def popcount16(x):
    total = 0
    for _ in range(4):
        total += POPCOUNT[x & 15]
        x >>= 4
    return total


# check: smooth(np.array([1.0, 2.0, 4.0, 8.0, 16.0])) -> [2.25, 4.5, 9.0]
# check: smooth(np.array([0.0, 4.0, 0.0])) -> [2.0]
@njit
def smooth(a):
    n = a.shape[0] - len(WEIGHTS) + 1
    out = np.empty(n)
    for i in range(n):
        acc = 0.0
        for k in range(len(WEIGHTS)):
            acc += WEIGHTS[k] * a[i + k]
        out[i] = acc
    return out


# check: horner(0.0) -> 1.0
# check: horner(1.0) -> 0.625
# check: horner(2.0) -> 0.33333333333333326
@njit
def horner(x):
    acc = 0.0
    for c in COEFFS[::-1]:
        acc = acc * x + c
    return acc


# check: table_sum() -> 21
# check: table_at(1, 2) -> 6
# check: table_at(-1, 0) -> 4
# check: table_at(2, 0) raises IndexError
@njit
def table_sum():
    return TABLE.sum()


@njit(boundscheck=True)
def table_at(i, j):
    return TABLE[i, j]


# check: grid_stats() -> (3, 4, 66, 11, 6)
@njit
def grid_stats():
    r, c = GRID.shape
    return r, c, GRID.sum(), GRID.max(), GRID[1, 2]


# check: cube_row(1, 2) -> [20.0, 21.0, 22.0, 23.0]
# check: cube_row(0, 0) -> [0.0, 1.0, 2.0, 3.0]
@njit
def cube_row(i, j):
    return CUBE[i, j].copy()


# check: constructors() -> (0.75, -0.5, 0.30000000000000004, 1.25, 7, 3.0, 2, 28, 4, 0.0)
@njit
def constructors():
    return (
        RAMP[3],
        RAMP_OPEN[1],
        STEPS[3],
        STEPS32[3],
        DOWN[1],
        EYE.sum(),
        SHIFTED.sum() - SHIFTED[0, 1],
        FULL.sum(),
        ONES.sum(),
        ZEROS.sum(),
    )


# check: lengths() -> (5, 4, 10, 10, 4, 0)
@njit
def lengths():
    return len(RAMP), len(RAMP_OPEN), len(STEPS), len(STEPS32), len(DOWN), len(EMPTY)


# check: masked_sum(np.array([1.0, 2.0, 3.0, 4.0])) -> 8.0
@njit
def masked_sum(a):
    total = 0.0
    for i in range(a.shape[0]):
        if MASK[i]:
            total += a[i]
    return total


# check: conversions() -> (4.5, 3, 6, 200, 44, 255, 1, -1, 2, 4.5)
@njit
def conversions():
    return (
        MIXED.sum(),
        TRANSPOSED.shape[0],
        TRANSPOSED[2, 1],
        WRAPPED[0],
        WRAPPED[1],
        WRAPPED[2],
        TRUNCATED[0],
        TRUNCATED[1],
        TRUNCATED[2],
        NESTED[1, 1],
    )


# check: bounds_product() -> 512
@njit
def bounds_product():
    p = 1
    for b in BOUNDS:
        p *= b
    return p


# check: phase_cos() -> [1.0, 6.123233995736766e-17, -1.0]
@njit
def phase_cos():
    return np.cos(PHASES)


# A global array used in an array expression, and returned (a copy comes back).
# check: scaled_weights(4.0) -> [1.0, 2.0, 1.0]
# check: weights_back() -> [0.25, 0.5, 0.25]
@njit
def scaled_weights(s):
    return WEIGHTS * s


@njit
def weights_back():
    return WEIGHTS


# Reading a table through a helper function that only reads it.
# check: table_via_helper() -> 21
@njit
def total_of(a):
    t = 0
    for x in a.ravel():
        t += x
    return t


@njit
def table_via_helper():
    return total_of(TABLE)


# Writing to a copy of a global array is fine.
# check: bumped_copy() -> [1.25, 0.5, 0.25]
@njit
def bumped_copy():
    w = WEIGHTS.copy()
    w[0] += 1.0
    return w


# Complex tables: twiddle factors and filter taps, as FFT and DSP code keeps them.
TWIDDLE = np.array([1 + 0j, 0.7071067811865476 - 0.7071067811865476j, -1j, -0.7071067811865476 - 0.7071067811865476j])
TAPS = np.array([[1, 2j], [-1j, 3]])
TAPS64 = np.array([0.5 + 1.5j, -2.25j], dtype=np.complex64)
REAL_AS_COMPLEX = np.arange(3, dtype=np.complex128)
ROTATION = complex(0.0, 1.0)
HALF_TURN = np.complex128(-1)
ROOT = (-4.0) ** 0.5
C32 = np.complex64(0.1 + 0.2j)


# check: twiddle_apply(np.array([1.0, 2.0, 3.0, 4.0])) -> (-0.41421356237309537-7.242640687119286j)
# check: twiddle_apply(np.array([0.5, -0.5, 0.25, 0.0])) -> (0.1464466094067262+0.10355339059327379j)
@njit
def twiddle_apply(x):
    acc = 0j
    for k in range(x.shape[0]):
        acc += TWIDDLE[k] * x[k]
    return acc


# check: taps_trace() -> (4+0j)
# check: taps_row(1) -> [(-0-1j), (3+0j)]
# check: taps_row(-2) -> [(1+0j), 2j]
@njit
def taps_trace():
    return TAPS[0, 0] + TAPS[1, 1]


@njit
def taps_row(i):
    return TAPS[i]


# check: complex_tables() -> ((3.375-1.125j), (3+0j), 1.0)
@njit
def complex_tables():
    return TAPS64[0] * TAPS64[1], REAL_AS_COMPLEX.sum(), abs(TWIDDLE[1])


# check: complex_scalars(2.0) -> ((-1+2j), 4.0, (0.20000000298023224+0.4000000059604645j))
# check: complex_scalars(-0.5) -> ((-1-0.5j), -1.0, (0.20000000298023224+0.4000000059604645j))
@njit
def complex_scalars(x):
    return x * ROTATION + HALF_TURN, ROOT.imag * x, C32 * 2


# A complex global array in an array expression.
# check: scaled_twiddle(2.0) -> [(2-0j), (1.4142135623730951+1.4142135623730951j), 2j, (-1.4142135623730951+1.4142135623730951j)]
@njit
def scaled_twiddle(s):
    return (TWIDDLE * s).conjugate()
