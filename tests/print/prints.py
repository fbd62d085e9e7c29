"""print() inside compiled functions: numbers of every width, bools, None and string
constants, separated by spaces and ended by a newline, as Numba prints them (Python's str of
each value). The expected text, from real Numba, is prints.expected (verify_print.py)."""

import math

import numpy as np
from numba import njit


@njit
def demo_scalars():
    n = 3
    x = 0.5
    print("n =", n, "x =", x)
    print(n * 2, x / 3, n > 2, None)


@njit
def demo_floats():
    print(1.0, -0.0, 0.1 + 0.2, 1e16, 1e15, 5e-5, 0.0001, 1.5e300 * 1e10, -np.inf, np.nan)
    print(np.float32(0.5), np.float32(0.1))


@njit
def demo_integers():
    print(np.int8(-128), np.int16(300), np.uint8(255), np.uint32(4000000000))
    print(np.uint64(18446744073709551615), -9223372036854775807 - 1)


@njit
def demo_loop():
    total = 0.0
    for i in range(3):
        total += i * 0.25
        print("step", i, "total", total)
    print()
    print("done: a longer message than eight bytes")


@njit
def demo_returns(k):
    print("k is", k)
    return k * 2


@njit
def demo_complex():
    z = complex(1.5, -2.0)
    print("z =", z, "conj", z.conjugate())
    print(2j, 3 + 0j, -1j * 1j, np.complex64(0.1 + 0.2j))
    print(complex(math.inf, math.nan))


@njit
def demo_tuples():
    # Tuples print as Python's str() of the tuple: the repr of each element.
    a = np.zeros((2, 3))
    print(a.shape, (1, 2.5), (3,))
    print((True, None), ("it's", 1), ((1, 2), -0.5))
    print("shape:", a[0].shape, (np.float32(0.1), np.int8(-3)))


@njit
def demo_containers():
    # Lists, dicts and sets print as Python writes them (each element's repr).
    d = {1: 2.5, 3: 4.0}
    print(d)
    e = {1: 2.5}
    del e[1]
    print(e)
    s = {3, 1}
    print(s)
    t = {1}
    t.discard(1)
    print(t)
    print([1.5, 2.0], [(1, 2)], "x", {(1, 2): (1.0, True)})


@njit
def demo_strings():
    # Strings computed at run time print their characters (UTF-8), quoted inside containers.
    for n in range(2):
        s = "n=" + str(n - 7) + " é€😀"
        print(s, [s], {s: n})
