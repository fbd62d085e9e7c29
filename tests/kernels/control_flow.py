"""if/elif/else, conditional expressions, while loops, break/continue, early return."""
import math
from numba import njit, jit


# check: sign(5) -> 1
# check: sign(-3) -> -1
# check: sign(0) -> 0
@njit
def sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    else:
        return 0


# check: grade(95) -> 4
# check: grade(85) -> 3
# check: grade(75) -> 2
# check: grade(10) -> 0
@njit
def grade(score):
    if score >= 90:
        g = 4
    elif score >= 80:
        g = 3
    elif score >= 70:
        g = 2
    else:
        g = 0
    return g


# check: cond_expr(3, 7) -> 7
# check: cond_expr(7, 3) -> 7
# check: cond_expr(-1, -1) -> -1
@njit
def cond_expr(a, b):
    return a if a > b else b


# check: nested_cond(-2.0) -> -1.0
# check: nested_cond(0.5) -> 0.25
# check: nested_cond(3.0) -> 1.7320508075688772
@njit
def nested_cond(x):
    return -1.0 if x < 0.0 else (x * x if x < 1.0 else math.sqrt(x))


# Conditional expression mixing int and float branches unifies to float.
# check: cond_mixed(True) -> 1.0
# check: cond_mixed(False) -> 2.5
@njit
def cond_mixed(flag):
    y = 1 if flag else 2.5
    return y


# check: collatz_steps(1) -> 0
# check: collatz_steps(6) -> 8
# check: collatz_steps(27) -> 111
@jit(nopython=True)
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


# check: first_multiple(10, 7) -> 14
# check: first_multiple(50, 13) -> 52
# check: first_multiple(3, 100) -> 100
@njit
def first_multiple(start, k):
    i = start
    while True:
        if i % k == 0:
            break
        i += 1
        if i > 1000:
            return -1
    return i


# check: sum_skip_multiples_of_3(10) -> 37
# check: sum_skip_multiples_of_3(0) -> 0
@njit
def sum_skip_multiples_of_3(n):
    s = 0
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        s += i
    return s


# check: is_prime(2) -> True
# check: is_prime(97) -> True
# check: is_prime(91) -> False
# check: is_prime(1) -> False
@njit
def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


# check: count_primes(30) -> 10
# check: count_primes(2) -> 0
@njit
def count_primes(n):
    c = 0
    for k in range(n):
        if is_prime(k):
            c += 1
    return c


# check: find_pair(10) -> (1, 10)
# check: find_pair(1) -> (-1, -1)
@njit
def find_pair(target):
    # first (i, j) with i < j and i * j == target, else (-1, -1)
    for i in range(1, target + 1):
        for j in range(i + 1, target + 1):
            if i * j == target:
                return i, j
            if i * j > target:
                break
    return -1, -1


# check: bisect_sqrt2(40) -> 1.4142135623724243
# check: bisect_sqrt2(0) -> 1.0
@njit
def bisect_sqrt2(iters):
    lo = 1.0
    hi = 2.0
    k = 0
    while k < iters:
        mid = 0.5 * (lo + hi)
        if mid * mid > 2.0:
            hi = mid
        else:
            lo = mid
        k += 1
    return lo


# check: while_countdown(5) -> 54321
# check: while_countdown(-2) -> 0
@njit
def while_countdown(n):
    acc = 0
    while n > 0:
        acc = acc * 10 + n
        n -= 1
    return acc


# check: fizz_code(15) -> 3
# check: fizz_code(9) -> 1
# check: fizz_code(10) -> 2
# check: fizz_code(7) -> 0
@njit
def fizz_code(n):
    if n % 15 == 0:
        return 3
    if n % 3 == 0:
        return 1
    if n % 5 == 0:
        return 2
    return 0


# Variable defined on both branches, then used after the if.
# check: abs_diff_branch(3.0, 5.5) -> 2.5
# check: abs_diff_branch(5.5, 3.0) -> 2.5
@njit
def abs_diff_branch(x, y):
    if x > y:
        d = x - y
    else:
        d = y - x
    return d


# `...` as a placeholder statement does nothing (a stub's whole body, or after a docstring).
@njit
def stub(x):
    ...


@njit
def stub_then_return(x):
    """Written later."""
    ...
    return x * 2


# check: stub(3) -> None
# check: stub_then_return(21) -> 42
