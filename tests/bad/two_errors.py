# expect-error: two errors in two functions: undefined variable 'y' in first(), call to unknown function 'nope' in second()
from numba import njit


@njit
def first(x):
    return x + y  # <-- here (error 1)


@njit
def ok(x):
    return x * 2


@njit
def second(x):
    return nope(x) + ok(x)  # <-- here (error 2)
