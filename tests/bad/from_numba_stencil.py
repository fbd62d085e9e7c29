# expect-error: importing `stencil` is fine, but @stencil is not a decorator twinjit compiles
from numba import stencil


@stencil  # <-- here
def smooth(a):
    return 0.25 * (a[-1] + 2.0 * a[0] + a[1])
