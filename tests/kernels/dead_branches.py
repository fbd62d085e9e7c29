"""Branches decided by types, as Numba prunes them: `None` default arguments tested with
`is None` / `is not None`, and `isinstance` on the argument's type, so the branch for the
other type is never typed (it would not type-check)."""
import numpy as np
from numba import njit


@njit
def scaled(x, factor=None):
    """An optional factor: doubled when omitted."""
    if factor is None:
        return x * 2.0
    return x * factor


# check: scaled_both(1.5) -> (3.0, 4.5)
@njit
def scaled_both(x):
    """Calls with and without the optional argument specialise separately."""
    return scaled(x), scaled(x, 3.0)


@njit
def clip_optional(a, lo=None, hi=None):
    """np.clip-like with optional bounds: only the given ones apply."""
    out = a.copy()
    if lo is not None:
        out = np.maximum(out, lo)
    if hi is not None:
        out = np.minimum(out, hi)
    return out


# check: clip_calls(np.array([-2.0, 0.5, 3.0])) -> ([-2.0, 0.5, 3.0], [0.0, 0.5, 3.0], [-2.0, 0.5, 1.0], [0.0, 0.5, 1.0])
@njit
def clip_calls(a):
    return clip_optional(a), clip_optional(a, 0.0), clip_optional(a, None, 1.0), clip_optional(a, 0.0, 1.0)


@njit
def fill_into(n, out=None):
    """An optional output array, allocated when omitted."""
    if out is None:
        out = np.zeros(n)
    for i in range(n):
        out[i] = i * 0.5
    return out


# check: fill_calls(3) -> ([0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 7.0])
@njit
def fill_calls(n):
    buf = np.full(n + 1, 7.0)
    fill_into(n, buf)
    return fill_into(n), buf


@njit
def describe(x):
    """isinstance on the argument's Numba type: int is int64, float is float64."""
    if isinstance(x, int):
        return 1
    elif isinstance(x, float):
        return 2
    elif isinstance(x, tuple):
        return 3 + len(x)
    return 0


# check: describe_all(7, 2.5, True) -> (1, 2, 5, 0)
@njit
def describe_all(i, f, b):
    return describe(i), describe(f), describe((i, f)), describe(b)


@njit
def as_pair(x):
    """A tuple passes through; a number becomes a pair (the tuple branch is pruned for numbers)."""
    if isinstance(x, tuple):
        return x
    return (x, x)


# check: pairs(4) -> ((4, 4), (4, 5))
@njit
def pairs(n):
    return as_pair(n), as_pair((n, n + 1))


# check: none_checks(1.0) -> (True, False, False)
@njit
def none_checks(x):
    """`is` with None on both sides and on one."""
    y = None
    return y is None, x is None, y is not None
