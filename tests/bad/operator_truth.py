# expect-error: `operator.truth` cannot be called from compiled code
import operator
from numba import njit


@njit
def nonzero(x):
    return operator.truth(x)  # <-- here
