"""Tuples as values: len, runtime indexing, slicing, concatenation, comparison, `in`,
iteration over tuple variables, a.strides."""
import numpy as np
from numba import njit


# check: tuple_len(1, 2.0) -> (3, 1, 4)
@njit
def tuple_len(a, b):
    t = (a, b, a)
    return len(t), len((b,)), len(t + (a,))


# check: runtime_index(10, 1) -> 20
# check: runtime_index(10, -1) -> 30
# check: runtime_index(10, -3) -> 10
# check: runtime_index(10, 3) raises IndexError
# check: runtime_index(10, -4) raises IndexError
@njit
def runtime_index(x, i):
    t = (x, 2 * x, 3 * x)
    return t[i]


# check: index_in_loop(np.array([1.5, 2.5, 3.5])) -> 376.5
@njit
def index_in_loop(a):
    w = (1.0, 10.0, 100.0)
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * w[i]
    return s


# check: slices(1, 2.0) -> ((2.0, 3, 4), (4, 3, 2.0, 1), (1, 2.0), (3, 4), (1, 3), (), (1, 2.0, 3))
@njit
def slices(a, b):
    t = (a, b, a + 2, a + 3)
    return t[1:], t[::-1], t[0:2], t[-2:], t[::2], t[5:], t[:-1]


# check: concat(1, 3.0) -> (1, 2, 3.0, True)
@njit
def concat(a, c):
    t = (a, a + 1)
    u = (c,)
    v = t + u
    return v + (True,)


# check: compare(1, 2, 1, 3) -> (False, True, True, True, False, False)
# check: compare(1, 2, 1.0, 2.0) -> (True, False, False, True, False, True)
# check: compare(3, 2, 1, 5) -> (False, True, False, False, True, True)
@njit
def compare(a, b, c, d):
    t = (a, b)
    u = (c, d)
    return t == u, t != u, t < u, t <= u, t > u, t >= u


# check: shape_eq(np.zeros((2, 3)), np.zeros((2, 3))) -> True
# check: shape_eq(np.zeros((2, 3)), np.zeros((3, 2))) -> False
@njit
def shape_eq(a, b):
    return a.shape == b.shape


# check: compare_lengths(1, 2) -> (False, True, True, True, False, False)
# check: compare_lengths(3, 2) -> (False, True, False, False, True, True)
@njit
def compare_lengths(a, b):
    t = (a, b)
    u = (1, 2, 0)
    return t == u, t != u, t < u, t <= u, t > u, t >= u


# check: contains(2, 1) -> (True, False)
# check: contains(2.0, 1) -> (True, False)
# check: contains(5, 1) -> (False, True)
@njit
def contains(x, y):
    t = (y, y + 1, y + 2)
    return x in t, x not in t


# check: iterate_variable(1) -> 123
# check: iterate_variable(4.5) -> 511.5
@njit
def iterate_variable(x):
    t = (x, x + 1, x + 2)
    s = 0
    for x in t:
        s = s * 10 + x
    return s


# check: iterate_local(3) -> 30
@njit
def iterate_local(n):
    t = (n, n + 1, n * 2)
    best = 0
    for k, x in enumerate(t):
        if x > best:
            best = x * 10 + k
    return best


# check: strides(np.zeros((3, 4))) -> (32, 8)
# check: strides(np.zeros((3, 4), dtype=np.float32)) -> (16, 4)
# check: strides(np.zeros((2, 3, 4), dtype=np.int32)) -> (48, 16, 4)
@njit
def strides(a):
    return a.strides


# check: nested_runtime_index(3, 1) -> (2, 3)
# check: nested_runtime_index(3, -2) -> (3, 1)
# check: nested_runtime_index(3, 2) raises IndexError
@njit
def nested_runtime_index(x, i):
    t = ((x, 1), (2, x))
    return t[i]


# check: compare_nested(1, 2) -> (True, False, True)
# check: compare_nested(2, 2) -> (False, True, True)
@njit
def compare_nested(a, b):
    t = ((a, b), 3)
    u = ((2, b), 3)
    return t < u, t == u, (a, (b,)) >= (a, (b,))


@njit
def tuple_of_tuple(t):
    # tuple(t) of a tuple is the tuple
    return tuple(t)


# check: tuple_of_tuple((1, 2.5)) -> (1, 2.5)


@njit
def iter_consumed(a):
    # iter(x) where the iterable is consumed whole
    s = 0.0
    for v in iter(a):
        s += v
    return s, len(list(iter(a)))


# check: iter_consumed(np.array([1.0, 2.0, 4.0])) -> (7.0, 3)
