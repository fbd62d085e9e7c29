"""for loops over range(stop), range(start, stop), range(start, stop, step)."""
from numba import njit


# check: range_stop(5) -> 10
# check: range_stop(0) -> 0
# check: range_stop(-3) -> 0
@njit
def range_stop(n):
    s = 0
    for i in range(n):
        s += i
    return s


# check: range_start_stop(3, 8) -> 119
# check: range_start_stop(8, 3) -> 0
# check: range_start_stop(-4, 2) -> -195
@njit
def range_start_stop(a, b):
    s = 0
    for i in range(a, b):
        s = s * 2 + i
    return s


# check: range_step(0, 10, 3) -> 1804
# check: range_step(1, 2, 5) -> 101
# check: range_step(10, 0, 3) -> 0
@njit
def range_step(a, b, step):
    s = 0
    n = 0
    for i in range(a, b, step):
        s += i
        n += 1
    return s * 100 + n


# check: range_neg_step(10, 0, -3) -> 10741
# check: range_neg_step(5, -5, -1) -> 5432098766
# check: range_neg_step(0, 10, -1) -> 0
# check: range_neg_step(3, 3, -1) -> 0
@njit
def range_neg_step(a, b, step):
    s = 0
    for i in range(a, b, step):
        s = s * 10 + i
    return s


# check: count_iters(0, 100, 7) -> 15
# check: count_iters(100, 0, -7) -> 15
# check: count_iters(-5, 5, 1) -> 10
@njit
def count_iters(a, b, step):
    n = 0
    for _ in range(a, b, step):
        n += 1
    return n


# check: nested_triangle(5) -> 20
# check: nested_triangle(1) -> 0
@njit
def nested_triangle(n):
    c = 0
    for i in range(n):
        for j in range(i):
            c += i - j
    return c


# check: break_at(10, 4) -> 6
# check: break_at(3, 9) -> 3
@njit
def break_at(n, stop_at):
    s = 0
    for i in range(n):
        if i == stop_at:
            break
        s += i
    return s


# check: continue_odd(10) -> 20
# check: continue_odd(1) -> 0
@njit
def continue_odd(n):
    s = 0
    for i in range(n):
        if i % 2 == 1:
            continue
        s += i
    return s


# The loop variable keeps its last value after the loop.
# check: last_index(7) -> 6
# check: last_index(1) -> 0
@njit
def last_index(n):
    last = -1
    for i in range(n):
        last = i
    return last


# check: harmonic(4) -> 2.083333333333333
# check: harmonic(1) -> 1.0
# check: harmonic(0) -> 0.0
@njit
def harmonic(n):
    h = 0.0
    for k in range(1, n + 1):
        h += 1.0 / k
    return h


# check: countdown_digits(5) -> 54321
# check: countdown_digits(0) -> 0
@njit
def countdown_digits(n):
    acc = 0
    for i in range(n, 0, -1):
        acc = acc * 10 + i
    return acc


# Return from inside a nested loop.
# check: first_sum_pair(5, 7) -> 34
# check: first_sum_pair(3, 100) -> -1
@njit
def first_sum_pair(n, target):
    for i in range(n):
        for j in range(n):
            if i + j == target:
                return i * 10 + j
    return -1


# Reassigning the loop variable inside the body does not change iteration.
# check: reassign_loop_var(4) -> 406
# check: reassign_loop_var(0) -> 0
@njit
def reassign_loop_var(n):
    s = 0
    for i in range(n):
        s += i
        i = 100
        s += i
    return s


# check: pi_leibniz(1000) -> 3.140592653839794
# check: pi_leibniz(1) -> 4.0
@njit
def pi_leibniz(terms):
    s = 0.0
    sgn = 1.0
    for k in range(terms):
        s += sgn / (2 * k + 1)
        sgn = -sgn
    return 4.0 * s
