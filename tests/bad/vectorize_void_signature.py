# expect-error: a @vectorize loop must return a number
from numba import vectorize


@vectorize(["void(float64)"])  # <-- here
def show(x):
    print(x)
