# expect-error: call to unknown function 'frobnicate'
from numba import njit


@njit
def helper(x):
    return x + 1


@njit
def main(x):
    return helper(x) + frobnicate(x)  # <-- here
