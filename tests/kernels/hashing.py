"""`hash()` of numbers, bools and tuples: CPython's values, which Numba reproduces (integers
modulo 2^61 - 1 with their sign, a float as the fraction it equals, so that equal numbers hash
alike, a complex number from its parts, a tuple from its elements; -1 is never a hash)."""
import math
import numpy as np
from numba import njit


# check: hash_of(0) -> 0
# check: hash_of(1) -> 1
# check: hash_of(-1) -> -2
# check: hash_of(-2) -> -2
# check: hash_of(123456789012) -> 123456789012
# check: hash_of(-9223372036854775808) -> -4
# check: hash_of(9223372036854775807) -> 3
# check: hash_of(2305843009213693951) -> 0
# check: hash_of(2305843009213693952) -> 1
# check: hash_of(True) -> 1
# check: hash_of(False) -> 0
# check: hash_of(0.0) -> 0
# check: hash_of(-0.0) -> 0
# check: hash_of(2.0) -> 2
# check: hash_of(-1.0) -> -2
# check: hash_of(1.5) -> 1152921504606846977
# check: hash_of(-2.5) -> -1152921504606846978
# check: hash_of(0.1) -> 230584300921369408
# check: hash_of(1e300) -> 1224995262755759164
# check: hash_of(-1e-300) -> -482449582752280463
# check: hash_of(5e-324) -> 16777216
# check: hash_of(1.7976931348623157e308) -> 2234066890152476671
# check: hash_of(math.inf) -> 314159
# check: hash_of(-math.inf) -> -314159
# check: hash_of(1.5 - 2j) -> 1152921504604846971
# check: hash_of(3 + 0j) -> 3
@njit
def hash_of(x):
    return hash(x)


# Widths: an int32 hashes as its value, a float32 as the float64 it widens to.
# check: small_widths(7, 0.1) -> (7, 230584304357343232)
@njit
def small_widths(i, f):
    return hash(np.int32(i)), hash(np.float32(f))


# Tuples, nested, and equal numbers of different types in them.
# check: tuple_hashes(2, 5) -> (-8422800446983873125, -1355599489548030549, True)
# check: tuple_hashes(-1, 0) -> (2575514064802888272, -4351542031245816461, True)
@njit
def tuple_hashes(a, b):
    return hash((a, b)), hash((a, (b, 1.5), True)), hash((a, 2.0)) == hash((a, 2))


# Bucketing pairs by hash, as a user might for a quick partition.
# check: buckets(np.array([1, 2, 3, 4, 5, 6]), 3) -> [3, 1, 1]
@njit
def buckets(x, n):
    counts = np.zeros(n, dtype=np.int64)
    for i in range(x.shape[0] - 1):
        counts[hash((x[i], x[i + 1])) % n] += 1
    counts[hash(x[-1]) % n] += 0
    return list(counts)
