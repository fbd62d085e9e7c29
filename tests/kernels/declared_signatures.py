"""Functions typed in their decorator: a call converts its arguments to a declared signature
(Numba compiles no other), picking the cheapest conversion when several are declared."""
import numpy as np
from numba import njit


# check: as_float32(12.2) -> 12.199999809265137
# check: as_float32(3) -> 3.0
@njit(["float32(float32)"])
def as_float32(x):
    return x


# check: mixed_max(1, 2, 3) -> 3.0
# check: mixed_max(1.5, 2.5, -1.0) -> 2.5
@njit(["float64(int32, float32, float64)"])
def mixed_max(a, b, c):
    return max(a, b, c)


# check: pick_width(2.5) -> 0.8333333333333334
# check: pick_width(np.float32(2.5)) -> 0.8333333134651184
# check: pick_width(7) -> 2.3333333333333335
@njit(["float32(float32)", "float64(float64)"])
def pick_width(x):
    return x / 3


# check: truncating(7.9) -> 14
# check: truncating(-7.9) -> -14
@njit(["int64(int64)"])
def truncating(n):
    return n * 2


# check: scaled_sum(np.array([1.0, 2.0, 3.5]), 2) -> 13.0
@njit(["float64(float64[:], float64)"])
def scaled_sum(a, k):
    s = 0.0
    for i in range(a.shape[0]):
        s += k * a[i]
    return s


# A signature list kept in a module-level variable, as modules that share it between
# functions write it.
HALF_SIGS = ["float32(float32)", "float64(float64)"]


# check: half_of(3) -> 1.5
# check: half_of(np.float32(1.25)) -> 0.625
@njit(HALF_SIGS)
def half_of(x):
    return x / 2


# Called from compiled code, a typed function converts its arguments the same way: the caller's
# float64 values become float32 (or are truncated to int64) before the call, and the result has
# the declared type.
@njit
def through_typed(x):
    return as_float32(x) * 1.0, truncating(x), pick_width(np.float32(x))


# check: through_typed(12.2) -> (12.199999809265137, 24, 4.066666603088379)
# check: through_typed(-7.9) -> (-7.900000095367432, -14, -2.633333444595337)


@njit("complex128(complex128)")
def doubled_complex(z):
    return z * 2


# A real number passed where a complex one is declared becomes complex first.
@njit
def via_complex(x):
    return doubled_complex(x), doubled_complex(x + 1j)


# check: via_complex(1.5) -> ((3+0j), (3+2j))
# check: via_complex(3) -> ((6+0j), (6+2j))
