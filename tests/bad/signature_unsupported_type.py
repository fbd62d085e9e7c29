# expect-error: the Numba type `complex128` is not supported yet (signature as type objects)
from numba import njit, complex128, float64


@njit(float64(complex128))  # <-- here
def real_part(z):
    return z.real
