"""Optional values: a variable that is None on some paths and a number on others, and
functions that return a number or None (Numba's OptionalType). Every use but `is None`
unwraps the value, raising TypeError when it is None, as Numba does."""

import numpy as np
from numba import njit


@njit
def positive_double(x):
    y = None
    if x > 0:
        y = x * 2.0
    return y


# check: positive_double(3.0) -> 6.0
# check: positive_double(-1.0) -> None


@njit
def find_first(a, target):
    for i in range(a.shape[0]):
        if a[i] == target:
            return i
    return None


# check: find_first(np.array([4, 7, 9]), 7) -> 1
# check: find_first(np.array([4, 7, 9]), 5) -> None


@njit
def index_or_minus_one(a, target):
    i = find_first(a, target)
    if i is None:
        return -1
    return i


# check: index_or_minus_one(np.array([4, 7, 9]), 9) -> 2
# check: index_or_minus_one(np.array([4, 7, 9]), 1) -> -1


@njit
def running_max(a):
    best = None
    for v in a:
        if best is None or v > best:
            best = v
    return best


# check: running_max(np.array([3.0, 7.0, 1.0])) -> 7.0
# check: running_max(np.zeros(0)) -> None


@njit
def add_one(x):
    y = None if x < 0 else x
    return y + 1


# check: add_one(2.0) -> 3.0
# check: add_one(-2.0) raises TypeError: expected float64, got None


@njit
def scaled_if_present(x):
    y = positive_double(x)
    if y is not None:
        return y * 10
    return 0.0


# check: scaled_if_present(1.5) -> 30.0
# check: scaled_if_present(-1.5) -> 0.0


@njit
def last_even(n):
    r = None
    for i in range(n):
        if i % 2 == 0:
            r = i
    return r


# check: last_even(7) -> 6
# check: last_even(0) -> None


@njit
def implicit_none(x):
    if x > 1:
        return x
    # falls off the end: None


# check: implicit_none(5) -> 5
# check: implicit_none(0) -> None


@njit
def mixed_widen(flag):
    # int on one path, float on another, None on a third: Optional(float64)
    if flag == 0:
        r = None
    elif flag == 1:
        r = 3
    else:
        r = 2.5
    return r


# check: mixed_widen(0) -> None
# check: mixed_widen(1) -> 3.0
# check: mixed_widen(2) -> 2.5


@njit
def nearest(a, x):
    best_i = None
    best_d = 0.0
    for i in range(a.shape[0]):
        d = abs(a[i] - x)
        if best_i is None or d < best_d:
            best_i = i
            best_d = d
    return best_i


# check: nearest(np.array([0.0, 2.0, 5.0]), 4.1) -> 2
# check: nearest(np.zeros(0), 1.0) -> None


@njit
def add_arrays(x, y):
    return x + y


@njit
def pass_optional_on(x, y):
    # an optional passed to another function is unwrapped at the call
    if y > 0:
        z = None
    else:
        z = y
    return add_arrays(x, z)


# check: pass_optional_on(np.array([1.0, 2.0]), -1.0) -> [0.0, 1.0]
# check: pass_optional_on(np.array([1.0, 2.0]), 1.0) raises TypeError


@njit
def optional_in_tuple(maybe):
    # a tuple keeps the optional: (1, None) or (1, 10)
    lx = None
    if maybe:
        lx = 10
    return 1, lx


# check: optional_in_tuple(True) -> (1, 10)
# check: optional_in_tuple(False) -> (1, None)


@njit
def optional_from_tuple(maybe):
    t = optional_in_tuple(maybe)
    if t[1] is None:
        return -1
    return t[1] + t[0]


# check: optional_from_tuple(True) -> 11
# check: optional_from_tuple(False) -> -1


# check: found_flags(np.array([3, 5, 7]), 5) -> (False, True, 1)
# check: found_flags(np.array([3, 5, 7]), 4) -> (True, False, -1)
@njit
def found_flags(a, target):
    """`== None` / `!= None` on a maybe-None value test for None (as `is None` does), and
    comparing None with a number is False."""
    where = None
    for i in range(a.shape[0]):
        if a[i] == target:
            where = i
    missing = where == None  # noqa: E711
    present = where != None  # noqa: E711
    idx = -1 if where is None else where
    return missing, present, idx
