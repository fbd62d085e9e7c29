"""An Ising-model energy as a physics user writes it: `import time`,
`@numba.jit(nopython=True, cache=True)`, annotations, a docstring, and a timing driver under
`if __name__ == "__main__":`. (J is passed explicitly: default arguments are not compiled yet.)"""
import time

import numba
import numpy as np


# check: ising_energy(np.ones((3, 3)), 1.0) -> -18.0
# check: ising_energy(np.array([[1.0, -1.0], [-1.0, 1.0]]), 1.0) -> 8.0
# check: ising_energy(np.array([[1.0, -1.0, 1.0], [1.0, 1.0, -1.0]]), 0.5) -> 2.0
@numba.jit(nopython=True, cache=True)
def ising_energy(spins: np.ndarray, J: float) -> float:
    """Energy of a 2-D lattice with periodic boundaries: -J * sum of neighbour products."""
    n, m = spins.shape[0], spins.shape[1]
    energy = 0.0
    for i in range(n):
        for j in range(m):
            s = spins[i, j]
            right = spins[i, (j + 1) % m]
            down = spins[(i + 1) % n, j]
            energy += -J * s * (right + down)
    return energy


# check: magnetization(np.array([[1.0, -1.0], [1.0, 1.0]])) -> 0.5
@numba.jit(nopython=True, cache=True)
def magnetization(spins: np.ndarray) -> float:
    """Mean spin."""
    total: float = 0.0
    for i in range(spins.shape[0]):
        for j in range(spins.shape[1]):
            total += spins[i, j]
    return total / spins.size


if __name__ == "__main__":
    lattice = np.where(np.random.rand(64, 64) < 0.5, -1.0, 1.0)
    t0 = time.time()
    e = ising_energy(lattice, 1.0)
    print(f"E = {e} in {time.time() - t0:.3f} s")


# The other common spelling: shape unpacked, the neighbour above through Python's negative
# index, the one to the right through `%`, and a field term.
# check: ising_field(np.array([[1.0, -1.0, 1.0], [1.0, 1.0, -1.0]]), 0.5, 0.25) -> 1.5
# check: ising_field(np.ones((1, 1)), 1.0, 0.0) -> -2.0
# check: ising_field(np.ones((4, 5)), 1.0, 1.0) -> -60.0
@numba.njit
def ising_field(spins, J, h):
    n, m = spins.shape
    e = 0.0
    for i in range(n):
        for j in range(m):
            s = spins[i, j]
            nb = spins[i - 1, j] + spins[i, (j + 1) % m]
            e += -J * s * nb - h * s
    return e
