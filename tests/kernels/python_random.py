"""Python's `random` module in compiled code, as Numba compiles it: a Mersenne Twister of its
own, apart from NumPy's, seeded by `random.seed`, whose draws and distributions give the very
numbers Numba gives for the same seed."""
import random
from random import gauss, randint

import numpy as np
from numba import njit


# The example on Numba's front page.
# check: monte_carlo_pi(10000, 42) -> 3.1508
@njit
def monte_carlo_pi(nsamples, seed):
    random.seed(seed)
    acc = 0
    for i in range(nsamples):
        x = random.random()
        y = random.random()
        if (x ** 2 + y ** 2) < 1.0:
            acc += 1
    return 4.0 * acc / nsamples


# check: dice(600, 7) -> [90, 95, 102, 114, 94, 105]
@njit
def dice(n, seed):
    random.seed(seed)
    counts = np.zeros(6, dtype=np.int64)
    for _ in range(n):
        counts[randint(1, 6) - 1] += 1
    return counts


# check: ranges(3) -> (8, 9, 23, 19, -5, 0, 6488955136)
# check: ranges(2024) -> (9, 49, 23, -11, -5, 1, 5175516969)
@njit
def ranges(seed):
    random.seed(seed)
    return (
        random.randrange(10),
        random.randrange(5, 50),
        random.randrange(100, 0, -7),
        random.randrange(-20, 20, 3),
        random.randint(-5, -5),
        random.getrandbits(1),
        random.getrandbits(33),
    )


# check: wide_bits(11) -> (1260038947521046425, 730228085840, 427191270737)
# check: wide_bits(1) -> (18394812951614845989, 1025295986572, 279173365503)
@njit
def wide_bits(seed):
    random.seed(seed)
    return random.getrandbits(64), random.getrandbits(40), random.randrange(1 << 40)


# check: distributions(5) -> (-0.11202731564104207, 9.412080392818975, 0.3715905688783965, 7.982711075947741, 6.630008068738275, 1.892180020004041, 1.027781360829522, 1.1245371723249624, 0.7019118784280785, 0.9363888797915481)
@njit
def distributions(seed):
    random.seed(seed)
    return (
        random.uniform(-1.0, 3.0),
        gauss(10.0, 2.0),
        random.normalvariate(0.0, 1.0),
        random.triangular(0.0, 10.0),
        random.triangular(0.0, 10.0, 9.0),
        random.expovariate(0.5),
        random.lognormvariate(0.0, 0.25),
        random.paretovariate(3.0),
        random.weibullvariate(2.0, 1.5),
        random.vonmisesvariate(1.0, 4.0),
    )


# Gamma draws below, at and above one (three algorithms), and a beta draw.
# check: gammas(8, 20) -> 125.97745675848462
@njit
def gammas(seed, n):
    random.seed(seed)
    s = 0.0
    for _ in range(n):
        s += random.gammavariate(0.5, 2.0) + random.gammavariate(1.0, 3.0)
        s += random.gammavariate(5.0, 0.5) + random.betavariate(2.0, 3.0)
    return s


# check: shuffled(10, 1) -> [9, 3, 4, 8, 5, 1, 7, 2, 0, 6]
@njit
def shuffled(n, seed):
    random.seed(seed)
    a = np.arange(n)
    random.shuffle(a)
    return a


# random.seed does not move NumPy's generator, nor np.random.seed the `random` module's.
# check: separate_generators(9) -> (0.010374153885699955, 0.010374153885699955, 0.5018745921487388, 0.771320643266746)
@njit
def separate_generators(seed):
    random.seed(seed)
    np.random.seed(seed)
    a = random.random()
    b = np.random.random()
    np.random.seed(seed + 1)
    c = random.random()
    random.seed(seed + 1)
    d = np.random.random()
    return a, b, c, d


# check: bad_gamma(-1.0) raises ValueError: gammavariate: alpha and beta must be > 0.0
@njit
def bad_gamma(alpha):
    return random.gammavariate(alpha, 1.0)


# check: empty_range(5) raises ValueError: empty range for randrange()
@njit
def empty_range(n):
    return random.randrange(n, n)
