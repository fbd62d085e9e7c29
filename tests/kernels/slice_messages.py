"""Error messages that carry the shapes at run time: a slice assignment whose source does not
fit names both shapes as Numba's does, and an array expression whose operands do not broadcast
names the operand (as Numba) and, beyond Numba's wording, both shapes."""
import numpy as np
from numba import njit


# check: slice_assign_bad(np.zeros(3), np.zeros(3)) raises ValueError: cannot assign slice of shape (2,) from input of shape (3,)
@njit
def slice_assign_bad(a, b):
    """Assigning a (3,) array into a (2,) slice."""
    a[1:] = b


# A 2-D block whose source has the wrong number of columns.
# check: paste_block(np.zeros((4, 4)), np.ones((2, 3))) raises ValueError: cannot assign slice of shape (2, 2) from input of shape (2, 3)
# check: paste_block(np.zeros((4, 4)), np.ones((2, 2))) -> 4.0
@njit
def paste_block(canvas, patch):
    canvas[1:3, 2:4] = patch
    return canvas.sum()


# A fused expression stored into a view of the wrong length.
# check: smooth_into(np.zeros(5), np.array([0.0, 1.0, 2.0, 3.0])) raises ValueError: cannot assign slice of shape (3,) from input of shape (2,)
# check: smooth_into(np.zeros(5), np.array([0.0, 1.0, 2.0, 3.0, 4.0])) -> [0.0, 1.0, 2.0, 3.0, 0.0]
@njit
def smooth_into(out, x):
    out[1:-1] = (x[:-2] + x[2:]) * 0.5 + 0.0 * x[1:-1]
    return out
