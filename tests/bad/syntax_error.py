# expect-error: syntax error: unclosed parenthesis
from numba import njit


@njit
def broken(x):
    y = (x + 1 * (x - 2)  # <-- here
    return y


@njit
def fine(x):
    return x
