"""Generators iterated by `for` loops in compiled code, as Numba runs them: lazily (an endless
generator with a `break`), with `continue`, `break`, `else`, `return` on either side, tuples
yielded and unpacked, generators nested, default arguments. (Numba refuses generators
defined inside a compiled function; twinjit inlines those too.)"""

import numpy as np
from numba import njit


@njit
def squares(n):
    for i in range(n):
        yield i * i


@njit
def naturals(start):
    k = start
    while True:
        yield k
        k += 1


@njit
def windows(a):
    # Neighbouring pairs of a 1-D array.
    for i in range(a.shape[0] - 1):
        yield a[i], a[i + 1]


@njit
def up_to_three():
    yield 1
    yield 2
    return
    yield 3


# check: sum_of_squares(5) -> 30
# check: sum_of_squares(0) -> 0
@njit
def sum_of_squares(n):
    s = 0
    for v in squares(n):
        s += v
    return s


# check: count_rises(np.array([1.0, 3.0, 2.0, 5.0, 7.0])) -> 3
# check: count_rises(np.array([4.0])) -> 0
@njit
def count_rises(a):
    c = 0
    for x, y in windows(a):
        if y > x:
            c += 1
    return c


# An endless generator stops when the loop breaks.
# check: first_square_above(50) -> 8
# check: first_square_above(-1) -> 0
@njit
def first_square_above(limit):
    for k in naturals(0):
        if k * k > limit:
            break
    return k


# `return` in the generator ends the loop; the loop's `else` runs.
# check: digits_then_else() -> 1012
@njit
def digits_then_else():
    out = 0
    for v in up_to_three():
        out = out * 10 + v
    else:
        out += 1000
    return out


# check: even_squares(6) -> 20
@njit
def even_squares(n):
    s = 0
    for v in squares(n):
        if v % 2 == 1:
            continue
        s += v
    return s


# check: nested_generators(4) -> 218
@njit
def nested_generators(n):
    s = 0
    for i in squares(n):
        for j in squares(i):
            s += j
    return s


@njit
def evens(m, step):
    k = 0
    while k < m:
        yield k
        k += step


# check: stepped(10, 3) -> 18
# check: stepped(1, 5) -> 0
@njit
def stepped(n, step):
    t = 0
    for e in evens(n, step):
        t += e
    return t


# check: first_square_over(10, 10) -> 16
# check: first_square_over(3, 10) -> -1
@njit
def first_square_over(n, bound):
    for v in squares(n):
        if v > bound:
            return v
    return -1


@njit
def cells(x):
    for i in range(x.shape[0]):
        yield i, (x[i - 1] if i > 0 else 0.5)


# The generator and the loop interleave: the loop's writes are seen by the next resumption.
# check: interleaved(np.zeros(4)) -> [1.0, 2.0, 4.0, 8.0]
@njit
def interleaved(a):
    for i, prev in cells(a):
        a[i] = prev * 2.0
    return a


# A generator with a default argument, called with and without it.
@njit
def countdown(n, stop=0):
    while n > stop:
        yield n
        n -= 1


# check: countdowns(4) -> (10, 7)
@njit
def countdowns(n):
    a = 0
    for v in countdown(n):
        a += v
    b = 0
    for v in countdown(n, stop=2):
        b += v
    return a, b


# `list()`, comprehensions, `enumerate`, `zip` and `sorted` over a generator.
# check: collected(4) -> ([0, 1, 4, 9], [0, 2, 8, 18], 22, [(0, 0), (1, 1), (2, 4), (3, 9)], [9, 4, 1, 0])
@njit
def collected(n):
    as_list = list(squares(n))
    doubled = [2 * v for v in squares(n)]
    weighted = 0
    for i, v in enumerate(squares(n)):
        weighted += i * v - v
    pairs = [(i, v) for i, v in zip(range(n), squares(n))]
    down = sorted(squares(n), reverse=True)
    return as_list, doubled, weighted, pairs, down
