# expect-error: CUDA gufuncs are not compiled yet; @vectorize(target='cuda') and kernels are
from numba import guvectorize


@guvectorize(["void(float32[:], float32[:])"], "(n)->(n)", target="cuda")  # <-- here
def cumulative(x, out):
    acc = 0.0
    for i in range(x.shape[0]):
        acc += x[i]
        out[i] = acc
