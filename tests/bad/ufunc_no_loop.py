# expect-error: no loop of the signature list takes a float64 array without an unsafe cast
from numba import njit, vectorize


@vectorize(["int32(int32)", "int64(int64)"])
def bump(x):
    return x + 1


@njit("float64[:](float64[:])")
def caller(a):
    return bump(a)  # <-- here
