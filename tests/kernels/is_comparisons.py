"""`is` / `is not`: folded by type as Numba does (a number is never None), by value between
numbers of one type, False between different types."""
from numba import njit


# check: value_or_zero(2) -> 3.0
# check: value_or_zero(2.5) -> 3.75
@njit
def value_or_zero(x):
    if x is None:
        return 0.0
    return x * 1.5


# check: guarded(3, 4) -> 12
# check: guarded(1.5, 2) -> 3.0
@njit
def guarded(x, scale):
    if scale is None:
        return x * 2
    return x * scale


# check: none_variable(4) -> 5
@njit
def none_variable(x):
    y = None
    if y is None and x is not None:
        return x + 1
    return -1


# check: same_ints(1, 1) -> True
# check: same_ints(1, 2) -> False
# check: same_ints(2.5, 2.5) -> True
# check: same_ints(1, 1.0) -> False
@njit
def same_ints(a, b):
    return a is b


# check: not_same(1, 1) -> False
# check: not_same(True, False) -> True
@njit
def not_same(a, b):
    return a is not b


# check: mixed_types(1) -> False
# check: mixed_types(1.0) -> True
@njit
def mixed_types(a):
    b = 1.0
    return a is b


# check: bools(True, True) -> 7
# check: bools(False, True) -> 4
# check: bools(True, False) -> 2
@njit
def bools(p, q):
    return (p is q) + 2 * (p is True) + 4 * (q is not False)


# check: chained(1, 1, 2) -> True
# check: chained(1, 1, 1) -> False
# check: chained(1, 2, 3) -> False
@njit
def chained(a, b, c):
    return a is b is not c


# Identity of arrays and lists, as Numba decides it: an array is the same object as another
# view of its buffer with the same shape and strides (a full slice is), a list only as itself.
# check: same_objects(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0])) -> (False, True, True, True, True, True)
# check: same_buffer_lists(4) -> (True, False, False, True)
@njit
def same_objects(a, b):
    c = a
    return a is b, a is c, a is a[:], a[1:] is a[1:], a is not a[::-1], a is a


@njit
def same_buffer_lists(n):
    a = list(range(n))
    b = a
    c = a[:]
    return (a is b), (a is not b), (a is c), (a is not c)
