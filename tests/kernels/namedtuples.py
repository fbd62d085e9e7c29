"""collections.namedtuple and typing.NamedTuple classes defined at module level, built and
read inside @njit functions: constructors with keywords, field access, indexing,
unpacking, and namedtuples passed between and returned from compiled functions."""
from collections import namedtuple
from typing import NamedTuple

import numpy as np
from numba import njit

Point = namedtuple("Point", ["x", "y"])
Interval = namedtuple("Interval", "lo hi")
Stats = namedtuple("Stats", "count, mean, spread")
Grid = namedtuple("Grid", ["size", "shape", "real"])


class Particle(NamedTuple):
    """A point mass (the docstring and annotations are ignored by Numba)."""

    pos: float
    vel: float
    mass: float


# check: norm2(3.0, 4.0) -> 25.0
# check: norm2(1, 2) -> 5
@njit
def norm2(a, b):
    p = Point(a, b)
    return p.x * p.x + p.y * p.y


# check: swapped(1, 2) -> (2, 1)
@njit
def swapped(a, b):
    p = Point(y=a, x=b)
    return p.x, p.y


@njit
def midpoint(p, q):
    return Point((p.x + q.x) / 2, (p.y + q.y) / 2)


# check: mid(0.0, 0.0, 2.0, 4.0) -> (1.0, 2.0)
@njit
def mid(ax, ay, bx, by):
    return midpoint(Point(ax, ay), Point(bx, by))


# check: width(3, 10) -> 7
# check: contains(3, 10, 5) -> True
# check: contains(3, 10, 11) -> False
@njit
def width(lo, hi):
    iv = Interval(lo, hi)
    return iv.hi - iv.lo


@njit
def contains(lo, hi, x):
    iv = Interval(lo, hi)
    return iv.lo <= x <= iv.hi


@njit
def summarize(a):
    n = a.shape[0]
    m = a.mean()
    if n < 2:
        return Stats(n, m, 0.0)
    return Stats(n, m, a.max() - a.min())


# check: summary_fields(np.array([1.0, 2.0, 6.0])) -> (3, 3.0, 5.0)
# check: summary_fields(np.array([4.0])) -> (1, 4.0, 0.0)
@njit
def summary_fields(a):
    s = summarize(a)
    return s.count, s.mean, s.spread


# check: step(0.0, 2.0, 0.5) -> (1.0, 2.0, 1.0)
# check: step_heavy(0.0, 2.0, 0.5) -> (1.0, 2.0, 4.0)
@njit
def step(pos, vel, dt):
    p = Particle(pos, vel, 1.0)
    q = Particle(p.pos + p.vel * dt, p.vel, p.mass)
    return q.pos, q.vel, q.mass


@njit
def step_heavy(pos, vel, dt):
    p = Particle(pos, vel, mass=4.0)
    return p.pos + p.vel * dt, p.vel, p.mass


# Indexing, len and unpacking work as on any tuple.
# check: as_tuple(5, 7) -> (5, 7, 2, 12)
@njit
def as_tuple(a, b):
    p = Point(a, b)
    x, y = p
    return p[0], p[1], len(p), x + y


# A namedtuple in a loop-carried variable.
# check: walk(4) -> (4, 8)
@njit
def walk(n):
    p = Point(0, 0)
    for _ in range(n):
        p = Point(p.x + 1, p.y + 2)
    return p.x, p.y


# check: grid_fields(4) -> 11.5
@njit
def grid_fields(n):
    """Fields named like array attributes (`size`, `shape`, `real`): a field of the namedtuple,
    the attribute of an array or a complex number in the same function."""
    g = Grid(n, (n, 2 * n), 1.5)
    a = np.zeros((2, 3))
    z = 2.0 + 1.0j
    return g.size + g.shape[1] + g.real - a.size + a.shape[0] + z.real
