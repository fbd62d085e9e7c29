"""Compiled functions passed to compiled functions (first-class functions): quadrature, root
finding and maps over arrays that take the integrand as an argument, as numerical code is
written. Each function is its own type in Numba, so every call is direct."""
import math
import numpy as np
from numba import njit


@njit
def square(x):
    return x * x


@njit
def cube(x):
    return x * x * x


@njit
def shifted_cos(x):
    return math.cos(x) - x


@njit
def apply(f, x):
    return f(x)


# check: apply_both(3) -> (9, 27)
# check: apply_both(2.5) -> (6.25, 15.625)
@njit
def apply_both(x):
    return apply(square, x), apply(cube, x)


@njit
def trapezoid(f, a, b, n):
    h = (b - a) / n
    s = 0.5 * (f(a) + f(b))
    for i in range(1, n):
        s += f(a + i * h)
    return s * h


# check: integrals(100) -> (0.33335000000000004, 0.25002500000000005)
# check: integrals(1) -> (0.5, 0.5)
@njit
def integrals(n):
    return trapezoid(square, 0.0, 1.0, n), trapezoid(cube, 0.0, 1.0, n)


@njit
def bisect(f, lo, hi, tol=1e-12):
    flo = f(lo)
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        fm = f(mid)
        if flo * fm <= 0:
            hi = mid
        else:
            lo = mid
            flo = fm
    return 0.5 * (lo + hi)


# check: dottie() -> 0.7390851332147975
@njit
def dottie():
    return bisect(shifted_cos, 0.0, 1.0)


@njit
def map_inplace(f, a):
    for i in range(a.shape[0]):
        a[i] = f(a[i])


# check: squared_sum(np.array([1.0, 2.0, 3.0])) -> 14.0 ; arg0 == [1.0, 4.0, 9.0]
@njit
def squared_sum(a):
    map_inplace(square, a)
    return a.sum()


@njit
def compose(f, g, x):
    return f(g(x))


# check: composed(2) -> (64, 64)
@njit
def composed(x):
    return compose(square, cube, x), compose(cube, square, x)


# A function stored in a variable, then called.
# check: through_names(3) -> (27, 9)
@njit
def through_names(x):
    g = cube
    h = square
    return g(x), h(x)


@njit
def newton(f, df, x0, steps):
    x = x0
    for _ in range(steps):
        x = x - f(x) / df(x)
    return x


@njit
def sq_minus_two(x):
    return x * x - 2.0


@njit
def twice(x):
    return 2.0 * x


# check: sqrt2(6) -> 1.414213562373095
@njit
def sqrt2(steps):
    return newton(sq_minus_two, twice, 1.0, steps)
