"""CUDA gufuncs: `@guvectorize([...], layout, target='cuda')`. twinjit compiles the function
as a device function and the gufunc as a kernel of one loop index per thread over the inputs
and outputs, each with one leading loop axis (an axis of length 1 broadcasts), so the checks
launch that kernel with explicit outputs; the Rust API (`Kernel::call_gufunc`) and numba-cuda
call it as `f(a, b, out)` with the loop dimensions in any shape (an input with no loop
dimensions broadcasts; tests/gpu_corpus.rs checks that through the API, since this kernel-level
form of it, a loop axis of length 1, is not one numba-cuda's `f(...)` accepts).

Expected values: numba-cuda's simulator has no CUDA gufuncs, so these are the results of the
same functions as CPU gufuncs (`target='cpu'`) under Numba 0.68.1, and run under numba-cuda on
the GPU with `verify_numba_cudasim.py --gpu`.
"""
import numpy as np
from numba import guvectorize


# A scalar result is written through a one-element array (`res[0] = ...`), as in Numba.
@guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()", target="cuda")
def row_dot(a, b, res):
    s = 0.0
    for k in range(a.shape[0]):
        s += a[k] * b[k]
    res[0] = s


# gpu-only: numba-cuda's simulator has no CUDA gufuncs
# check: row_dot[1, 32](np.array([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]]), np.array([[1.0, 1.0], [2.0, 0.5], [4.0, 2.0]]), np.zeros(3)) -> None ; arg2 == [3.0, 8.0, 0.0]


# A scalar input declared as a number arrives as the element; two loops by dtype.
@guvectorize(["void(float32[:], float32, float32[:])", "void(float64[:], float64, float64[:])"], "(n),()->(n)",
             target="cuda")
def scale_shift(x, c, out):
    for k in range(x.shape[0]):
        out[k] = x[k] * c + 1


# gpu-only: numba-cuda's simulator has no CUDA gufuncs
# check: scale_shift[1, 32](np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]], dtype=np.float32), np.array([2.0, 0.25], dtype=np.float32), np.zeros((2, 3), dtype=np.float32)) -> None ; arg2 == [[3.0, 5.0, 7.0], [1.125, 0.75, 2.0]]
# gpu-only: numba-cuda's simulator has no CUDA gufuncs
# check: scale_shift[1, 32](np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]]), np.array([3.0]), np.zeros((2, 3))) -> None ; arg2 == [[4.0, 7.0, 10.0], [2.5, -2.0, 13.0]]


@guvectorize(["void(int64[:], int64[:])"], "(n)->(n)", target="cuda")
def running_sum(x, out):
    acc = 0
    for k in range(x.shape[0]):
        acc += x[k]
        out[k] = acc


# gpu-only: numba-cuda's simulator has no CUDA gufuncs
# check: running_sum[2, 2](np.array([[1, 2, 3, 4], [5, -5, 5, -5], [0, 0, 7, 1]]), np.zeros((3, 4), dtype=np.int64)) -> None ; arg1 == [[1, 3, 6, 10], [5, 0, 5, 0], [0, 0, 7, 8]]


# Two core dimensions: a batch of matrix-vector products.
@guvectorize(["void(float64[:, :], float64[:], float64[:])"], "(m,n),(n)->(m)", target="cuda")
def matvec(a, v, out):
    for i in range(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j] * v[j]
        out[i] = s


# gpu-only: numba-cuda's simulator has no CUDA gufuncs
# check: matvec[1, 8](np.array([[[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]], [[2.0, 2.0, 2.0], [1.0, -1.0, 0.5]]]), np.array([[1.0, 0.5, 2.0], [3.0, 1.0, -2.0]]), np.zeros((2, 2))) -> None ; arg2 == [[8.0, 0.5], [4.0, 1.0]]
