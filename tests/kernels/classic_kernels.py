"""Classic numeric kernels: mandelbrot, exp decay, saxpy, running stats, sieve."""
import math
import numpy as np
from numba import njit, jit


# Escape-time count for the point c = cr + i*ci.
# check: mandel_escape(0.0, 0.0, 100) -> 100
# check: mandel_escape(1.0, 1.0, 100) -> 2
# check: mandel_escape(-0.75, 0.1, 1000) -> 33
# check: mandel_escape(0.3, 0.5, 50) -> 50
@njit
def mandel_escape(cr, ci, max_iter):
    zr = 0.0
    zi = 0.0
    for n in range(max_iter):
        if zr * zr + zi * zi > 4.0:
            return n
        zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
    return max_iter


# check: mandel_grid(np.zeros((3, 4), dtype=np.int64), -2.0, 1.0, -1.0, 1.0, 30) -> 165 ; arg0 == [[1, 3, 30, 2], [30, 30, 30, 3], [1, 3, 30, 2]]
# check: mandel_grid(np.zeros((2, 2), dtype=np.int64), -0.5, 0.0, -0.5, 0.5, 10) -> 40 ; arg0 == [[10, 10], [10, 10]]
@njit
def mandel_grid(out, xmin, xmax, ymin, ymax, max_iter):
    h = out.shape[0]
    w = out.shape[1]
    total = 0
    for i in range(h):
        ci = ymin + (ymax - ymin) * i / (h - 1)
        for j in range(w):
            cr = xmin + (xmax - xmin) * j / (w - 1)
            out[i, j] = mandel_escape(cr, ci, max_iter)
            total += out[i, j]
    return total


# check: exp_decay(1.0, 0.1, 0.01, 100) -> 0.9047921471137096
# check: exp_decay(5.0, 0.0, 0.1, 10) -> 5.0
# check: exp_decay(2.0, 1.0, 0.5, 0) -> 2.0
@njit
def exp_decay(x0, k, dt, steps):
    x = x0
    for _ in range(steps):
        x += -k * x * dt
    return x


# check: exp_decay_error(1.0, 0.1, 0.01, 100) -> -4.5270922249929235e-05
# check: exp_decay_error(2.0, 1.0, 0.001, 1000) -> -0.0003680328009572076
@njit
def exp_decay_error(x0, k, dt, steps):
    return exp_decay(x0, k, dt, steps) - x0 * math.exp(-k * dt * steps)


# check: saxpy(2.0, np.array([1.0, 2.0, 3.0]), np.array([10.0, 20.0, 30.0])) -> None ; arg2 == [12.0, 24.0, 36.0]
# check: saxpy(-1.0, np.array([1.5], dtype=np.float32), np.array([0.25], dtype=np.float32)) -> None ; arg2 == [-1.25]
@njit
def saxpy(a, x, y):
    for i in range(x.shape[0]):
        y[i] += a * x[i]


# Welford running mean / variance.
# check: welford(np.array([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])) -> (5.0, 4.0)
# check: welford(np.array([1.0])) -> (1.0, 0.0)
@jit(nopython=True)
def welford(x):
    mean = 0.0
    m2 = 0.0
    n = 0
    for i in range(x.shape[0]):
        n += 1
        d = x[i] - mean
        mean += d / n
        m2 += d * (x[i] - mean)
    return mean, m2 / n


# check: sieve_count(np.zeros(30, dtype=np.bool_)) -> 10 ; arg0 == [False, False, False, False, True, False, True, False, True, True, True, False, True, False, True, True, True, False, True, False, True, True, True, False, True, True, True, True, True, False]
# check: sieve_count(np.zeros(2, dtype=np.bool_)) -> 0
@njit
def sieve_count(composite):
    n = composite.shape[0]
    count = 0
    for i in range(2, n):
        if not composite[i]:
            count += 1
            for j in range(i * i, n, i):
                composite[j] = True
    return count


# Trapezoid rule for integral of sin on [0, pi].
# check: trapezoid_sin(100) -> 1.9998355038874436
# check: trapezoid_sin(1) -> 1.9236706937217898e-16
@njit
def trapezoid_sin(n):
    h = math.pi / n
    s = 0.5 * (math.sin(0.0) + math.sin(math.pi))
    for k in range(1, n):
        s += math.sin(k * h)
    return s * h


# check: nbody_energy(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]]), np.array([1.0, 2.0, 3.0])) -> -6.183281572999748
# check: nbody_energy(np.array([[0.0, 0.0], [3.0, 4.0]]), np.array([2.0, 5.0])) -> -2.0
@njit
def nbody_energy(pos, mass):
    e = 0.0
    for i in range(pos.shape[0]):
        for j in range(i + 1, pos.shape[0]):
            dx = pos[i, 0] - pos[j, 0]
            dy = pos[i, 1] - pos[j, 1]
            e -= mass[i] * mass[j] / math.sqrt(dx * dx + dy * dy)
    return e


# check: box_blur_1d(np.array([0.0, 3.0, 6.0, 3.0, 0.0]), np.zeros(5)) -> None ; arg1 == [1.5, 3.0, 4.0, 3.0, 1.5]
# check: box_blur_1d(np.array([2.0]), np.zeros(1)) -> None ; arg1 == [2.0]
@njit
def box_blur_1d(x, out):
    n = x.shape[0]
    for i in range(n):
        lo = max(i - 1, 0)
        hi = min(i + 1, n - 1)
        s = 0.0
        for k in range(lo, hi + 1):
            s += x[k]
        out[i] = s / (hi - lo + 1)


# check: logistic_map(0.5, 3.9, 50) -> 0.24135511240702046
# check: logistic_map(0.2, 2.0, 100) -> 0.49999999999999994
@njit
def logistic_map(x0, r, n):
    x = x0
    for _ in range(n):
        x = r * x * (1.0 - x)
    return x


# check: pi_monte_grid(20) -> 3.16
# check: pi_monte_grid(1) -> 4.0
# check: pi_monte_grid(7) -> 3.183673469387755
@njit
def pi_monte_grid(n):
    inside = 0
    for i in range(n):
        for j in range(n):
            x = (i + 0.5) / n
            y = (j + 0.5) / n
            if x * x + y * y <= 1.0:
                inside += 1
    return 4.0 * inside / (n * n)


# check: bubble_sort(np.array([5, 1, 4, 2, 8, 0])) -> 9 ; arg0 == [0, 1, 2, 4, 5, 8]
# check: bubble_sort(np.array([3.5, -1.0])) -> 1 ; arg0 == [-1.0, 3.5]
@njit
def bubble_sort(a):
    n = a.shape[0]
    swaps = 0
    for i in range(n):
        for j in range(n - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
                swaps += 1
    return swaps
