"""NumPy's advanced indexing as Numba supports it: one integer array (or a 1-D boolean
mask) among integers, slices and `...`, on arrays of any dimension, to read (a new array) and
to assign. This is how data code selects rows, columns, samples and mini-batches."""

import numpy as np
from numba import njit


# Rows of a matrix chosen by an integer array (repeats allowed): a new array.
@njit
def rows(x, idx):
    return x[idx]


# check: rows(np.arange(12).reshape(4, 3), np.array([2, 0, 2])) -> [[6, 7, 8], [0, 1, 2], [6, 7, 8]]


# Columns chosen by an integer array, every row.
@njit
def cols(x, idx):
    return x[:, idx]


# check: cols(np.arange(12).reshape(4, 3), np.array([2, 0])) -> [[2, 0], [5, 3], [8, 6], [11, 9]]


# An integer array and an integer: one element per chosen row.
@njit
def row_then_col(x, idx):
    return x[idx, 1]


# check: row_then_col(np.arange(12).reshape(4, 3), np.array([3, 1])) -> [10, 4]


# An integer and an integer array.
@njit
def col_of_rows(x, idx):
    return x[1, idx]


# check: col_of_rows(np.arange(12).reshape(4, 3), np.array([0, 0, 2])) -> [3, 3, 5]


# Rows kept by a boolean mask computed from a column.
@njit
def mask_rows(x):
    keep = x[:, 0] > 2
    return x[keep]


# check: mask_rows(np.arange(12).reshape(4, 3)) -> [[3, 4, 5], [6, 7, 8], [9, 10, 11]]


# Columns kept by a boolean mask computed from a row.
@njit
def mask_cols(x):
    keep = x[0] % 2 == 0
    return x[:, keep]


# check: mask_cols(np.arange(12).reshape(4, 3)) -> [[0, 2], [3, 5], [6, 8], [9, 11]]


# An integer array after `...`: the last axis.
@njit
def ellipsis_idx(x, idx):
    return x[..., idx]


# check: ellipsis_idx(np.arange(24).reshape(2, 3, 4), np.array([3, 0])) -> [[[3, 0], [7, 4], [11, 8]], [[15, 12], [19, 16], [23, 20]]]


# Negative positions count from the end.
@njit
def neg_idx(x):
    return x[np.array([-1, 0])]


# check: neg_idx(np.arange(12).reshape(4, 3)) -> [[9, 10, 11], [0, 1, 2]]


# A position past the axis raises IndexError (Numba checks it under boundscheck=True).
@njit(boundscheck=True)
def oob(x):
    return x[:, np.array([0, 5])]


# check: oob(np.arange(12).reshape(4, 3)) raises IndexError


# Assigning a number to rows chosen by an integer array.
@njit
def set_rows(x, idx):
    x[idx] = 0
    return x


# check: set_rows(np.arange(12.0).reshape(4, 3), np.array([0, 3])) -> [[0.0, 0.0, 0.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [0.0, 0.0, 0.0]]


# Assigning a column of values, broadcast across the chosen columns.
@njit
def set_cols(x, idx):
    x[:, idx] = np.arange(x.shape[0]).reshape(x.shape[0], 1) * 10
    return x


# check: set_cols(np.arange(12).reshape(4, 3), np.array([1])) -> [[0, 0, 2], [3, 10, 5], [6, 20, 8], [9, 30, 11]]


# Assigning through a boolean mask of rows and a full slice.
@njit
def set_mask_rows(x):
    x[x[:, 0] > 2, :] = -1
    return x


# check: set_mask_rows(np.arange(12).reshape(4, 3)) -> [[0, 1, 2], [-1, -1, -1], [-1, -1, -1], [-1, -1, -1]]


# A bootstrap resample: rows drawn with replacement.
@njit
def bootstrap(x, seed):
    np.random.seed(seed)
    idx = np.random.randint(0, x.shape[0], x.shape[0])
    return x[idx].sum(axis=0).shape


# check: bootstrap(np.arange(12.0).reshape(4, 3), 42) -> (3,)


# An integer, an integer array and a strided slice on a 3-D array.
@njit
def gather_3d(x, idx):
    return x[1, idx, ::2]


# check: gather_3d(np.arange(24).reshape(2, 3, 4), np.array([2, 0])) -> [[20, 22], [12, 14]]


# A mini-batch of samples and their labels, through a permutation.
@njit
def batch(X, y, start, n):
    perm = np.arange(X.shape[0])[::-1]
    b = perm[start:start + n]
    return X[b], y[b]


# check: batch(np.arange(12.0).reshape(4, 3), np.arange(4), 1, 2) -> ([[6.0, 7.0, 8.0], [3.0, 4.0, 5.0]], [2, 1])


# A slice and an integer array.
@njit
def slice_then(x, idx):
    return x[1:, idx]


# check: slice_then(np.arange(12).reshape(4, 3), np.array([0, 2])) -> [[3, 5], [6, 8], [9, 11]]


# A 2-D integer array on the first axis: its dimensions replace that axis.
@njit
def idx2d(x):
    return x[np.array([[0, 1], [1, 0]])].shape


# check: idx2d(np.arange(12).reshape(4, 3)) -> (2, 2, 3)
