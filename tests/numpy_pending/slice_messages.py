"""Pending: runtime values in error messages. Numba's slice assignment names both shapes
(`cannot assign slice of shape (2,) from input of shape (3,)`); twinjit raises the same
ValueError with a message without the shapes, as its messages are constant text today."""
import numpy as np
from numba import njit


# check: slice_assign_bad(np.zeros(3), np.zeros(3)) raises ValueError: cannot assign slice of shape (2,) from input of shape (3,)
@njit
def slice_assign_bad(a, b):
    """Assigning a (3,) array into a (2,) slice."""
    a[1:] = b
