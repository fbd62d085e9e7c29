"""Dict kernels for benches/compare/compare_dicts.py: the same file runs under Numba."""

import numpy as np
from numba import njit


@njit
def count_codes(x):
    # Occurrences of each code: a lookup and an update per element (1000 distinct codes).
    counts = {}
    for v in x:
        if v in counts:
            counts[v] += 1
        else:
            counts[v] = 1
    return len(counts)


@njit
def insert_many(n):
    # n new keys: the table grows from 8 slots, rebuilt at each doubling.
    d = {}
    for i in range(n):
        d[i] = i * 0.5
    return len(d)


@njit
def lookup_many(n):
    # n lookups in a table of 1000 entries (in cache).
    d = {}
    for i in range(1000):
        d[i] = i * 0.5
    s = 0.0
    for i in range(n):
        s += d[i % 1000]
    return s


@njit
def pair_keys(a, b):
    # Tuple keys: how many distinct (a[i], b[i]) pairs, and the last index of each.
    last = {}
    for i in range(a.shape[0]):
        last[(a[i], b[i])] = i
    return len(last)
