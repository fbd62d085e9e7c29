"""Complex arrays through NumPy's sorting and cumulative and spread reductions, as
signal-processing code uses them: ordering spectral peaks, running phasor sums, the spread of
a cloud of points in the complex plane."""
import numpy as np
from numba import njit


# Sorting orders by real part, then imaginary part; NaN parts go last (Numba's lt_complex).
# check: sorted_roots(np.array([3 + 1j, 1 - 2j, 1 + 0j, 2j, -1 + 5j])) -> [(-1+5j), 2j, (1-2j), (1+0j), (3+1j)]
# check: sorted_roots(np.array([complex(np.nan, 1), 1 + 1j, complex(1, np.nan), complex(np.nan, np.nan), complex(np.nan, -1), 0j, complex(1, -np.inf)])) -> [0j, complex(1.0, -math.inf), (1+1j), complex(1.0, math.nan), complex(math.nan, -1.0), complex(math.nan, 1.0), complex(math.nan, math.nan)]
# check: sorted_roots(np.array([2 + 1j, 2 - 1j, 2 + 0j], dtype=np.complex64)) -> [(2-1j), (2+0j), (2+1j)]
# check: sorted_roots(np.zeros(0, dtype=np.complex128)) -> []
@njit
def sorted_roots(z):
    return np.sort(z)


# The order of the strongest bins, and the bins sorted in place.
# check: peak_order(np.array([1 + 1j, -2j, 0.5 + 0j, 1 + 1j, 3 - 4j])) -> ([1, 2, 0, 3, 4], [(-0-2j), (0.5+0j), (1+1j), (1+1j), (3-4j)], [1, 2, 0, 3, 4])
@njit
def peak_order(spec):
    order = np.argsort(spec)
    s = spec.copy()
    s.sort()
    return order, s, spec.argsort()


# Running sums and products of phasors.
# check: running_phasors(np.array([1 + 1j, 2 - 1j, -0.5j, 3 + 0j])) -> ([(1+1j), (3+0j), (3-0.5j), (6-0.5j)], [(1+1j), (3+1j), (0.5-1.5j), (1.5-4.5j)], [(1+1j), (3+0j), (3-0.5j), (6-0.5j)])
# check: running_phasors(np.array([1 + 2j, 0.5 - 1j], dtype=np.complex64)) -> ([(1+2j), (1.5+1j)], [(1+2j), (2.5+0j)], [(1+2j), (1.5+1j)])
# check: running_phasors(np.zeros(0, dtype=np.complex128)) -> ([], [], [])
@njit
def running_phasors(z):
    return np.cumsum(z), np.cumprod(z), z.cumsum()


# The spread of points in the complex plane: variance and standard deviation are real.
# check: spread(np.array([1 + 1j, 3 - 1j, 2 + 3j, -1j])) -> (4.0, 2.0, 4.0, 2.0)
# check: spread(np.array([1 + 2j, 2 + 4j], dtype=np.complex64)) -> (1.25, 1.118033988749895, 1.25, 1.118033988749895)
# check: spread(np.zeros(0, dtype=np.complex128)) raises ZeroDivisionError
@njit
def spread(z):
    return np.var(z), np.std(z), z.var(), z.std()


# Cumulative sums of a complex grid along an axis.
# check: grid_cumsum(np.array([[1 + 1j, 2j], [3 + 0j, -1 - 1j]])) -> ([[(1+1j), 2j], [(4+1j), (-1+1j)]], [[(1+1j), (1+3j)], [(3+0j), (2-1j)]], [(1+1j), (1+3j), (4+3j), (3+2j)])
@njit
def grid_cumsum(g):
    return np.cumsum(g, axis=0), np.cumsum(g, axis=1), np.cumsum(g)


# Many tied keys: the default kind orders ties as Numba's quicksort does, 'mergesort' keeps
# them in input order.
# check: tied_order(40) -> ([35, 14, 7, 28, 0, 21, 29, 8, 1, 22, 36, 15, 2, 23, 37, 16, 30, 9, 17, 38, 10, 31, 24, 3, 11, 32, 4, 25, 39, 18, 26, 5, 19, 33, 12, 20, 34, 13, 6, 27], [14, 35, 7, 28, 0, 21, 8, 29, 1, 22, 15, 36, 2, 23, 16, 37, 9, 30, 17, 38, 10, 31, 3, 24, 11, 32, 4, 25, 18, 39, 5, 26, 19, 12, 33, 20, 13, 34, 6, 27])
# check: tied_order(5) -> ([0, 1, 2, 3, 4], [0, 1, 2, 3, 4])
@njit
def tied_order(n):
    z = np.empty(n, dtype=np.complex128)
    for i in range(n):
        z[i] = complex(i % 7, -(i % 3))
    return np.argsort(z), np.argsort(z, kind='mergesort')
