# expect-error: the layout names two inputs and one output, the function has two parameters
from numba import float64, guvectorize


@guvectorize([(float64[:], float64[:])], "(n),(n)->()")  # <-- here
def dot(x, res):
    res[0] = x.sum()
