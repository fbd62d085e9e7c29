# expect-error: a dict's keys must have one type, found str("a") and str("b")
from numba import njit


@njit("int64()")
def lookup():
    table = {"a": 10, "b": 20}  # <-- here
    return table["a"]
