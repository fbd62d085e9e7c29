# expect-error: complex default values are not supported yet
from numba import njit


@njit
def rotate(z, by=1j):  # <-- here
    return z * by


@njit
def main(x):
    return rotate(x + 0j, 2j)
