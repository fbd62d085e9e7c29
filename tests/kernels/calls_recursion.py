"""Calls between @njit functions, recursion and mutual recursion."""
import numpy as np
from numba import njit


# check: fib(0) -> 0
# check: fib(1) -> 1
# check: fib(20) -> 6765
@njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


# check: fib_iter(50) -> 12586269025
# check: fib_iter(0) -> 0
# check: fib_iter(92) -> 7540113804746346429
@njit
def fib_iter(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


# check: gcd(48, 18) -> 6
# check: gcd(17, 5) -> 1
# check: gcd(0, 9) -> 9
# check: gcd(-12, 18) -> 6
@njit
def gcd(a, b):
    if b == 0:
        return a
    return gcd(b, a % b)


# check: lcm(4, 6) -> 12
# check: lcm(7, 13) -> 91
@njit
def lcm(a, b):
    return a // gcd(a, b) * b


# check: factorial(0) -> 1
# check: factorial(10) -> 3628800
# check: factorial(20) -> 2432902008176640000
# check: factorial(21) -> -4249290049419214848
@njit
def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


# check: power_rec(2.0, 10) -> 1024.0
# check: power_rec(1.5, 0) -> 1.0
# check: power_rec(-2.0, 5) -> -32.0
@njit
def power_rec(x, n):
    if n == 0:
        return 1.0
    half = power_rec(x, n // 2)
    if n % 2 == 0:
        return half * half
    return half * half * x


# check: is_even(10) -> True
# check: is_even(7) -> False
# check: is_odd(7) -> True
# check: is_odd(0) -> False
@njit
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@njit
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


# check: square(3.0) -> 9.0
# check: square(-4) -> 16
@njit
def square(x):
    return x * x


# check: norm2(3.0, 4.0) -> 25.0
# check: norm2(0.0, 0.0) -> 0.0
@njit
def norm2(x, y):
    return square(x) + square(y)


# check: apply_twice(3) -> 5
# check: apply_twice(-1) -> 1
@njit
def apply_twice(n):
    return inc(inc(n))


# check: inc(41) -> 42
# check: inc(-9223372036854775808) -> -9223372036854775807
@njit
def inc(n):
    return n + 1


# check: ackermann(2, 3) -> 9
# check: ackermann(1, 0) -> 2
# check: ackermann(0, 5) -> 6
@njit
def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


# check: binsearch(np.array([1, 3, 5, 7, 9, 11]), 7, 0, 6) -> 3
# check: binsearch(np.array([1, 3, 5, 7, 9, 11]), 4, 0, 6) -> -1
# check: binsearch(np.array([2]), 2, 0, 1) -> 0
@njit
def binsearch(a, x, lo, hi):
    if lo >= hi:
        return -1
    mid = (lo + hi) // 2
    if a[mid] == x:
        return mid
    if a[mid] < x:
        return binsearch(a, x, mid + 1, hi)
    return binsearch(a, x, lo, mid)


# check: array_sum_rec(np.array([1.0, 2.0, 3.5]), 3) -> 6.5
# check: array_sum_rec(np.array([1.0, 2.0, 3.5]), 0) -> 0.0
@njit
def array_sum_rec(a, n):
    if n == 0:
        return 0.0
    return a[n - 1] + array_sum_rec(a, n - 1)


# check: hanoi_moves(1) -> 1
# check: hanoi_moves(10) -> 1023
@njit
def hanoi_moves(n):
    if n == 0:
        return 0
    return 2 * hanoi_moves(n - 1) + 1


# check: tri_recursive(100) -> 5050
# check: tri_recursive(0) -> 0
@njit
def tri_recursive(n):
    return 0 if n == 0 else n + tri_recursive(n - 1)


# check: call_chain(2.0) -> 25.0
# check: call_chain(-1.0) -> 7.0
@njit
def call_chain(x):
    return norm2(x, square(x)) + float(fib(5))
