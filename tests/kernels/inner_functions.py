"""Inner functions and lambdas defined and called inside a compiled function (inlined)."""
from numba import njit


# check: inner_closure(3) -> 17
# check: inner_closure(0) -> 2
# check: inner_closure(-4) -> 10
@njit
def inner_closure(x):
    k = 2

    def g(y):
        return y * k

    sq = lambda v: v * v
    return g(x) + g(1) + sq(x)


# check: inner_capture_late(3) -> 15
@njit
def inner_capture_late(x):
    k = 2

    def g(y):
        return y * k

    k = 5
    return g(x)


# check: inner_defaults(3) -> 517
@njit
def inner_defaults(x):
    def g(y, s=10):
        return y + s

    return g(x) + g(x, 1) + g(x, 2) * 100


# check: inner_loop_return(10) -> 14
# check: inner_loop_return(2) -> -2
@njit
def inner_loop_return(n):
    def g(m):
        t = 0
        for i in range(m):
            if i > 5:
                return t
            t += i
        return -1

    return g(n) + g(3)


# check: inner_shadow(4) -> 106
@njit
def inner_shadow(x):
    i = 100

    def g(y):
        t = 0
        for i in range(y):
            t += i
        return t

    return g(x) + i


# check: inner_nonlocal(3) -> 7
@njit
def inner_nonlocal(x):
    k = 1

    def g(y):
        nonlocal k
        k = k + y
        return y

    g(x)
    g(x)
    return k


# check: inner_in_loop(0) -> 0.0
# check: inner_in_loop(5) -> 20.0
@njit
def inner_in_loop(n):
    acc = 0.0
    for i in range(n):
        scale = 0.5 * i
        f = lambda v: v * scale + 1.0
        acc += f(i)
    return acc


# check: inner_calls_inner(3) -> 22
@njit
def inner_calls_inner(x):
    def a(y):
        return y + 1

    def b(y):
        return a(y) * a(y + 1)

    return b(x) + (lambda z: z - 1)(x)


# check: inner_while(27) -> 138
# check: inner_while(1) -> 1
@njit
def inner_while(n):
    def collatz(m):
        steps = 0
        while m != 1:
            if m % 2 == 0:
                m = m // 2
            else:
                m = 3 * m + 1
            steps += 1
        return steps

    return collatz(n) + n


# check: inner_float_args(3.0, 4.0) -> 10.0
@njit
def inner_float_args(a, b):
    def hyp(x, y):
        return (x * x + y * y) ** 0.5

    return hyp(a, b) + hyp(b, a)
