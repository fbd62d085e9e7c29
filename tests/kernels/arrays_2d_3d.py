"""2-D and 3-D arrays: a[i, j], a[i, j, k], shape[1], matmul, Ising energy."""
import numpy as np
from numba import njit


# check: sum2d(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.5]])) -> 21.5
# check: sum2d(np.zeros((0, 3))) -> 0.0
# check: sum2d(np.ones((4, 5))) -> 20.0
@njit
def sum2d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    return s


# check: shape2d(np.zeros((3, 4))) -> (3, 4, 12, 2, 3)
# check: shape2d(np.zeros((1, 0), dtype=np.int64)) -> (1, 0, 0, 2, 1)
@njit
def shape2d(a):
    return a.shape[0], a.shape[1], a.size, a.ndim, len(a)


# check: shape3d(np.zeros((2, 3, 4))) -> (234, 24, 3)
# check: shape3d(np.zeros((1, 0, 5), dtype=np.int32)) -> (105, 0, 3)
@njit
def shape3d(a):
    return a.shape[0] * 100 + a.shape[1] * 10 + a.shape[2], a.size, a.ndim


# check: matmul(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[5.0, 6.0], [7.0, 8.0]]), np.zeros((2, 2))) -> 4 ; arg2 == [[19.0, 22.0], [43.0, 50.0]]
# check: matmul(np.array([[1.0, 0.0, 2.0]]), np.array([[1.0], [2.0], [3.0]]), np.zeros((1, 1))) -> 1 ; arg2 == [[7.0]]
# check: matmul(np.array([[1, 2, 3], [4, 5, 6]]), np.array([[1, 0], [0, 1], [1, 1]]), np.zeros((2, 2), dtype=np.int64)) -> 4 ; arg2 == [[4, 5], [10, 11]]
@njit
def matmul(a, b, c):
    n = a.shape[0]
    m = b.shape[1]
    kk = a.shape[1]
    for i in range(n):
        for j in range(m):
            acc = 0.0
            for k in range(kk):
                acc += a[i, k] * b[k, j]
            c[i, j] = acc
    return n * m


# check: transpose_into(np.array([[1, 2, 3], [4, 5, 6]]), np.zeros((3, 2), dtype=np.int64)) -> None ; arg1 == [[1, 4], [2, 5], [3, 6]]
# check: transpose_into(np.array([[1.5], [2.5]]), np.zeros((1, 2))) -> None ; arg1 == [[1.5, 2.5]]
@njit
def transpose_into(a, out):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out[j, i] = a[i, j]


# Ising energy with periodic boundary conditions: E = -J * sum s_ij * (right + down).
# check: ising_energy(np.array([[1, 1], [1, 1]]), 1.0) -> -8.0
# check: ising_energy(np.array([[1, -1], [-1, 1]]), 1.0) -> 8.0
# check: ising_energy(np.array([[1, -1, 1], [1, 1, -1], [-1, 1, 1]]), 0.5) -> 3.0
# check: ising_energy(np.array([[1, 1, 1, 1], [1, -1, -1, 1], [1, 1, 1, 1]]), 2.0) -> -24.0
@njit
def ising_energy(spins, J):
    n = spins.shape[0]
    m = spins.shape[1]
    e = 0.0
    for i in range(n):
        for j in range(m):
            s = spins[i, j]
            right = spins[i, (j + 1) % m]
            down = spins[(i + 1) % n, j]
            e += -J * s * (right + down)
    return e


# Ising neighbour sum with negative indices wrapping at the low edge.
# check: ising_neighbors(np.array([[1, -1, 1], [1, 1, -1], [-1, 1, 1]]), 0, 0) -> 0
# check: ising_neighbors(np.array([[1, -1, 1], [1, 1, -1], [-1, 1, 1]]), 1, 1) -> 0
@njit
def ising_neighbors(spins, i, j):
    n = spins.shape[0]
    m = spins.shape[1]
    return spins[i - 1, j] + spins[(i + 1) % n, j] + spins[i, j - 1] + spins[i, (j + 1) % m]


# check: sum3d(np.ones((2, 3, 4))) -> 24.0
# check: sum3d(np.zeros((2, 0, 2))) -> 0.0
@njit
def sum3d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                s += a[i, j, k]
    return s


# check: fill3d(np.zeros((2, 2, 3), dtype=np.int64)) -> 112 ; arg0 == [[[0, 1, 2], [10, 11, 12]], [[100, 101, 102], [110, 111, 112]]]
# check: fill3d(np.zeros((2, 3, 3), dtype=np.int64)) -> 112
@njit
def fill3d(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                a[i, j, k] = i * 100 + j * 10 + k
    return a[1, 1, 2]


# check: corner_3d(np.ones((2, 2, 2))) -> 6.0
# check: corner_3d(np.array([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]])) -> 6.0 ; arg0 == [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 5.0]]]
@njit
def corner_3d(a):
    a[-1, -1, -1] = 5.0
    return a[1, 1, 1] + a[0, 0, 0]


# check: row_sums(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), np.zeros(2)) -> None ; arg1 == [6.0, 15.0]
# check: row_sums(np.zeros((3, 0)), np.ones(3)) -> None ; arg1 == [0.0, 0.0, 0.0]
@njit
def row_sums(a, out):
    for i in range(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j]
        out[i] = s


# check: trace(np.array([[1.0, 2.0], [3.0, 4.0]])) -> 5.0
# check: trace(np.array([[2, 0, 0], [0, 3, 0], [0, 0, 4]])) -> 9
@njit
def trace(a):
    t = 0
    for i in range(min(a.shape[0], a.shape[1])):
        t += a[i, i]
    return t


# check: add_elem_2d(np.zeros((2, 3), dtype=np.int64), np.array([0, 1, 1, 0]), np.array([2, 0, 0, 2])) -> None ; arg0 == [[0, 0, 2], [2, 0, 0]]
# check: add_elem_2d(np.zeros((1, 1), dtype=np.int64), np.array([0, 0, 0]), np.array([0, 0, 0])) -> None ; arg0 == [[3]]
@njit
def add_elem_2d(grid, rows, cols):
    for k in range(rows.shape[0]):
        grid[rows[k], cols[k]] += 1


# Jacobi-style 5-point stencil on the interior; boundary copied.
# check: stencil(np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 4.0, 8.0, 0.0], [0.0, 0.0, 0.0, 0.0]]), np.zeros((3, 4))) -> 2.0 ; arg1 == [[0.0, 0.0, 0.0, 0.0], [0.0, 2.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
# check: stencil(np.ones((3, 3)), np.zeros((3, 3))) -> 1.0 ; arg1 == [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
@njit
def stencil(a, out):
    n = a.shape[0]
    m = a.shape[1]
    for i in range(n):
        for j in range(m):
            if i == 0 or j == 0 or i == n - 1 or j == m - 1:
                out[i, j] = a[i, j]
            else:
                out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
    return out[1, 1]


# check: float32_2d(np.array([[0.1, 0.2], [0.3, 0.4]], dtype=np.float32)) -> 1.0
# check: float32_2d(np.ones((3, 3), dtype=np.float32)) -> 9.0
@njit
def float32_2d(a):
    s = np.float32(0.0)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    return s
