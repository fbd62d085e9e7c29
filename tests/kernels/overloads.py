"""Numba's high-level extension API: `@overload` of a stub function or of a function from
another module, chosen by the call's argument types (`isinstance` on Numba's type classes,
`.ndim`, omitted arguments), several overloads of one function tried in order, and
`TypingError` for types no overload accepts."""
import statistics

import numpy as np
from numba import njit, types
from numba.core.errors import TypingError
from numba.extending import overload, overload_attribute, overload_method, register_jitable


def clip_to(x, lo, hi):
    """Pure Python: compiled callers use the overload below."""
    return min(max(x, lo), hi)


@overload(clip_to)
def _ol_clip_to(x, lo, hi):
    if isinstance(x, types.Array):
        def impl(x, lo, hi):
            out = np.empty_like(x)
            for i in range(x.shape[0]):
                v = x[i]
                out[i] = lo if v < lo else (hi if v > hi else v)
            return out
        return impl
    if isinstance(x, (types.Integer, types.Float)):
        def impl(x, lo, hi):
            return lo if x < lo else (hi if x > hi else x)
        return impl
    raise TypingError("clip_to() takes a number or a 1-D array")


# check: clip_calls(np.array([-1.0, 0.25, 3.0]), 12) -> ([0.0, 0.25, 1.0], 10, 0.5)
@njit
def clip_calls(a, n):
    return clip_to(a, 0.0, 1.0), clip_to(n, 0, 10), clip_to(0.5, 0.0, 1.0)


def head(x):
    pass


@overload(head, inline="always")
def _ol_head_tuple(x):
    """Only for homogeneous tuples; other types fall through to the next overload."""
    if isinstance(x, types.UniTuple):
        def impl(x):
            return x[0]
        return impl


@overload(head)
def _ol_head_number(x):
    if isinstance(x, types.Number):
        def impl(x):
            return x + 1
        return impl


# check: head_calls() -> (7, 101, (2+3j))
@njit
def head_calls():
    return head((7, 8, 9)), head(100), head(1 + 3j)


@register_jitable
def _sum_squares(a):
    s = 0.0
    for v in a.ravel():
        s += v * v
    return s


def magnitude(a, order=None):
    return np.linalg.norm(a, order)


@overload(magnitude)
def _ol_magnitude(a, order=None):
    if not isinstance(a, types.Array):
        raise TypingError("magnitude() takes an array")
    if not isinstance(a.dtype, (types.Integer, types.Float)):
        raise TypingError("magnitude() takes integer or float arrays")
    if not (1 <= a.ndim <= 2):
        raise TypingError("magnitude() takes 1-D or 2-D arrays")
    if a.ndim == 1:
        def impl_vector(a, order=None):
            if order is None or order == 2:
                return np.sqrt(_sum_squares(a))
            s = 0.0
            for v in a:
                s += abs(v) ** order
            return s ** (1.0 / order)
        return impl_vector
    else:
        def impl_matrix(a, order=None):
            # Frobenius norm whatever the order.
            return np.sqrt(_sum_squares(a))
        return impl_matrix


# check: magnitudes(np.array([3.0, -4.0]), np.array([[1, 2], [2, 4]])) -> (5.0, 7.0, 5.0, 5.0)
@njit
def magnitudes(v, m):
    return magnitude(v), magnitude(v, 1), magnitude(m), magnitude(v, None)


@overload(statistics.fmean)
def _ol_fmean(data):
    """A function of another module, compiled from this overload where compiled code calls it."""
    if isinstance(data, types.Array) and data.ndim == 1:
        def impl(data):
            s = 0.0
            for v in data:
                s += v
            return s / data.shape[0]
        return impl


# check: running_means(np.array([1.0, 2.0, 6.0])) -> [1.0, 1.5, 3.0]
@njit
def running_means(x):
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = statistics.fmean(x[: i + 1])
    return out


def scale_by(x, factor=None):
    pass


@overload(scale_by)
def _ol_scale_by(x, factor=None):
    if factor is None or isinstance(factor, types.NoneType):
        def impl(x, factor=None):
            return x * 2
        return impl
    elif isinstance(factor, types.Integer):
        def impl(x, factor=None):
            return x * factor
        return impl
    else:
        def impl(x, factor=None):
            return x * factor + 0.5
        return impl


# check: scales(3) -> (6, 6, 9, 4.5)
@njit
def scales(n):
    return scale_by(n), scale_by(n, None), scale_by(n, 3), scale_by(n, 1.3333333333333333)


def code_of(x):
    pass


@overload(code_of)
def _ol_code_of(x):
    """One implementation per branch, returned after the `if`."""
    if isinstance(x, types.Boolean):
        def impl(x):
            return 1 if x else 0
    elif isinstance(x, types.Integer):
        def impl(x):
            return 10 + x
    elif isinstance(x, types.Float):
        def impl(x):
            return 100 + int(x)
    else:
        raise TypingError("code_of() takes a number")
    return impl


# check: codes(3, 2.5) -> (1, 13, 102)
@njit
def codes(n, x):
    return code_of(True), code_of(n), code_of(x)


@overload_method(types.Array, "spread")
def _ol_array_spread(arr):
    """`a.spread()`: the range of the values."""
    if isinstance(arr.dtype, (types.Integer, types.Float)):
        def impl(arr):
            return arr.max() - arr.min()
        return impl


@overload_method(types.UniTuple, "spread")
def _ol_tuple_spread(tup):
    """The same method on a homogeneous tuple."""
    def impl(tup):
        return max(tup) - min(tup)
    return impl


@overload_attribute(types.Array, "middle")
def _ol_middle(arr):
    """`a.middle`: the element at the middle of a 1-D array."""
    if arr.ndim == 1:
        def get(arr):
            return arr[arr.shape[0] // 2]
        return get


# check: spreads(np.array([4.0, -1.5, 2.0]), np.array([7, 3, 9, 1, 5])) -> (5.5, 8, 6, -1.5, 9)
@njit
def spreads(x, n):
    return x.spread(), n.spread(), (3, 9, 5).spread(), x.middle, n.middle


def difference(a, b):
    pass


@overload(difference)
def _ol_difference_int(a, b):
    if isinstance(a, types.Integer):
        def impl(a, b):
            return a - b
        return impl


@overload(difference)
def _ol_difference_float(b, a):
    """Parameters named the other way round: still the call's first and second arguments."""
    if isinstance(b, types.Float):
        def impl(b, a):
            return b - a
        return impl


# check: differences() -> (3, 3.0)
@njit
def differences():
    return difference(5, 2), difference(5.0, 2.0)
