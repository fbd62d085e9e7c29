"""`f(*t)` calls and `*args` parameters."""
import numpy as np
from numba import njit


@njit
def combine(a, b, c):
    return a * 100 + b * 10 + c


# check: splat_variable(1, 2) -> 123
# check: splat_variable(-1, 0) -> -97
@njit
def splat_variable(x, y):
    t = (x, y, 3)
    return combine(*t)


# check: splat_partial(4) -> 1646
@njit
def splat_partial(x):
    t = (x, 5)
    u = (x,)
    return combine(*t, 6) + combine(7, *t) + combine(*u, *t)


# check: splat_literal(1.5) -> 173.0
@njit
def splat_literal(x):
    return combine(*(x, 2), 3)


# check: splat_shape(np.zeros((2, 3))) -> 123
@njit
def splat_shape(a):
    return combine(1, *a.shape)


@njit
def total(*args):
    s = 0
    for x in args:
        s += x
    return len(args), s


@njit
def first_plus_rest(a, *rest):
    return a + len(rest) * 1000, rest


@njit
def pick(k, *args):
    return args[k] + args[-1]


# check: varargs(1, 2) -> ((3, 6), (1, 1), (1, ()), (2001, (2, 2)), 4)
# check: varargs(-4, 7) -> ((3, 6), (1, -4), (-4, ()), (1996, (7, 7)), 14)
@njit
def varargs(x, y):
    return total(x, y, 3), total(x), first_plus_rest(x), first_plus_rest(x, y, y), pick(1, x, y, y)


@njit
def star_in_display(t):
    # `*t` inside a tuple display concatenates
    return (1, *t, 9)


# check: star_in_display((2, 3)) -> (1, 2, 3, 9)


@njit
def star_only(t, u):
    return (*t, *u)


# check: star_only((1.5, 2.5), (3,)) -> (1.5, 2.5, 3)


# `*t` of a tuple variable into a `*args` function: the named parameters first, the splatted
# tuples and the single arguments after them form `args`.
# check: forward_varargs((1, 2, 3)) -> ((3, 6), (4010, (1, 2, 3, 5)), 5)
# check: forward_varargs((7, 8)) -> ((2, 15), (3010, (7, 8, 5)), 16)
@njit
def forward_varargs(t):
    return total(*t), first_plus_rest(10, *t, 5), pick(1, *t, *t)
