"""Kernels calling device functions (`@cuda.jit(device=True)`) that return scalars and tuples
and call each other; loops, branches and while loops inside them.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import math
import numpy as np
from numba import cuda, types
from numba.extending import overload


@cuda.jit(device=True)
def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


# check: clamp_kernel[2, 4](np.array([-3.5, -1.0, 0.0, 0.25, 0.999, 1.0, 7.0]), np.zeros(7)) -> None ; arg1 == [0.0, 0.0, 0.0, 0.25, 0.999, 1.0, 1.0]
@cuda.jit
def clamp_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = clamp(x[i], 0.0, 1.0)


@cuda.jit(device=True)
def py_divmod(a, b):
    return a // b, a % b


# A device function returning a tuple, unpacked in the kernel.
# check: divmod_kernel[1, 8](np.array([17, -17, 17, -17, 0, 5]), np.array([5, 5, -5, -5, 3, 7]), np.zeros(6, dtype=np.int64), np.zeros(6, dtype=np.int64)) -> None ; arg2 == [3, -4, -4, 3, 0, 0] ; arg3 == [2, 3, -3, -2, 0, 5]
@cuda.jit
def divmod_kernel(a, b, q, r):
    i = cuda.grid(1)
    if i < a.size:
        qq, rr = py_divmod(a[i], b[i])
        q[i] = qq
        r[i] = rr


@cuda.jit(device=True)
def square(x):
    return x * x


@cuda.jit(device=True)
def dist2(x1, y1, x2, y2):
    return square(x1 - x2) + square(y1 - y2)


# Device functions calling device functions.
# check: nearest_origin[1, 8](np.array([3.0, -1.0, 0.5, 6.0, -2.0]), np.array([4.0, 1.0, -0.5, 8.0, 0.0]), np.zeros(5)) -> None ; arg2 == [5.0, 1.4142135623730951, 0.7071067811865476, 10.0, 2.0]
@cuda.jit
def nearest_origin(xs, ys, out):
    i = cuda.grid(1)
    if i < xs.size:
        out[i] = math.sqrt(dist2(xs[i], ys[i], 0.0, 0.0))


@cuda.jit(device=True)
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


# A while loop in a device function.
# check: collatz_kernel[2, 8](np.arange(1, 13), np.zeros(12, dtype=np.int32)) -> None ; arg1 == [0, 1, 7, 2, 5, 8, 16, 3, 19, 6, 14, 9]
@cuda.jit
def collatz_kernel(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = collatz_steps(a[i])


@cuda.jit(device=True)
def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return abs(a)


@cuda.jit(device=True)
def reduce_fraction(p, q):
    g = gcd(p, q)
    return p // g, q // g


# A tuple from a device function that itself calls one.
# check: fractions[1, 8](np.array([6, 10, -4, 35, 9, 0]), np.array([8, 25, 6, 14, 3, 5]), np.zeros((6, 2), dtype=np.int64)) -> None ; arg2 == [[3, 4], [2, 5], [-2, 3], [5, 2], [3, 1], [0, 1]]
@cuda.jit
def fractions(p, q, out):
    i = cuda.grid(1)
    if i < p.size:
        a, b = reduce_fraction(p[i], q[i])
        out[i, 0] = a
        out[i, 1] = b


@cuda.jit(device=True)
def lerp32(a, b, t):
    return a + (b - a) * t


# float32 through a device function stays float32.
# check: lerp_kernel[1, 8](np.array([0.0, 1.0, -2.0, 10.0, 0.1], dtype=np.float32), np.array([1.0, 3.0, 2.0, 20.0, 0.7], dtype=np.float32), np.float32(0.5), np.zeros(5, dtype=np.float32)) -> None ; arg3 == [0.5, 2.0, 0.0, 15.0, 0.3999999761581421]
@cuda.jit
def lerp_kernel(a, b, t, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = lerp32(a[i], b[i], t)


@cuda.jit(device=True)
def minmax3(a, b, c):
    lo = a
    hi = a
    if b < lo:
        lo = b
    if c < lo:
        lo = c
    if b > hi:
        hi = b
    if c > hi:
        hi = c
    return lo, hi


# A device function over a window of a 2-D array, returning two values.
# check: window_minmax[(1, 1), (4, 4)](np.array([[5, 1, 9, 2], [8, 3, 7, 6], [4, 0, 2, 11], [3, 3, 3, 3]]), np.zeros((4, 2), dtype=np.int64)) -> None ; arg1 == [[1, 9], [3, 8], [0, 11], [3, 3]]
@cuda.jit
def window_minmax(a, out):
    r, c = cuda.grid(2)
    if r < a.shape[0] and c == 0:
        lo, hi = minmax3(a[r, 0], a[r, 1], a[r, 2])
        lo2, hi2 = minmax3(lo, hi, a[r, 3])
        out[r, 0] = lo2
        out[r, 1] = hi2


@cuda.jit(device=True)
def poly(x):
    # Horner: 2x^3 - 3x^2 + 0.5x - 1
    acc = 2.0
    acc = acc * x - 3.0
    acc = acc * x + 0.5
    acc = acc * x - 1.0
    return acc


@cuda.jit(device=True)
def poly_pair(x):
    return poly(x), poly(-x)


# check: poly_kernel[1, 8](np.array([0.0, 1.0, -1.0, 2.0, 0.5, -3.0]), np.zeros(6), np.zeros(6)) -> None ; arg1 == [-1.0, -1.5, -6.5, 4.0, -1.25, -83.5] ; arg2 == [-1.0, -6.5, -1.5, -30.0, -2.25, 27.5]
@cuda.jit
def poly_kernel(x, pos, neg):
    i = cuda.grid(1)
    if i < x.size:
        p, n = poly_pair(x[i])
        pos[i] = p
        neg[i] = n


@cuda.jit(device=True)
def count_bits(v):
    n = 0
    while v > 0:
        n += v & 1
        v >>= 1
    return n


# Bit operations in a device function, an int32 argument array.
# check: popcounts[1, 16](np.array([0, 1, 2, 3, 255, 256, 1023, 12345, 65535, 7], dtype=np.int32), np.zeros(10, dtype=np.int64)) -> None ; arg1 == [0, 1, 1, 2, 8, 1, 10, 6, 16, 3]
@cuda.jit
def popcounts(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = count_bits(a[i])


# A `@cuda.jit` function without `device=True` that returns a value: numba-cuda compiles it
# as a device function when a kernel calls it.
@cuda.jit
def clamp_unit(x):
    if x < 0.0:
        return 0.0
    if x > 1.0:
        return 1.0
    return x


# gpu-only: the simulator launches every @cuda.jit function as a kernel (run with --gpu)
# check: clamp_all[1, 8](np.array([-0.5, 0.25, 1.5, 1.0]), np.zeros(4)) -> None ; arg1 == [0.0, 0.25, 1.0, 1.0]
@cuda.jit
def clamp_all(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = clamp_unit(x[i])


# A `@cuda.jit` function that returns nothing, called from a kernel: numba-cuda compiles it as
# a device function too.
@cuda.jit
def store_scaled(out, i, v):
    out[i] = 3.0 * v


# gpu-only: the simulator launches every @cuda.jit function as a kernel (run with --gpu)
# check: scale_all[1, 8](np.array([1.0, -2.0, 0.5]), np.zeros(3)) -> None ; arg1 == [3.0, -6.0, 1.5]
@cuda.jit
def scale_all(x, out):
    i = cuda.grid(1)
    if i < x.size:
        store_scaled(out, i, x[i])


@cuda.jit(device=True)
def halve(x):
    return 0.5 * x


@cuda.jit(device=True)
def negate(x):
    return -x


@cuda.jit(device=True)
def apply_twice(f, x):
    return f(f(x))


# Device functions passed to a device function (each its own type, so the calls are direct).
# check: twice_each[1, 8](np.array([8.0, -4.0, 1.0]), np.zeros(3), np.zeros(3)) -> None ; arg1 == [2.0, -1.0, 0.25] ; arg2 == [8.0, -4.0, 1.0]
@cuda.jit
def twice_each(x, halves, negs):
    i = cuda.grid(1)
    if i < x.size:
        halves[i] = apply_twice(halve, x[i])
        negs[i] = apply_twice(negate, x[i])


def saturate(v, top):
    """Plain Python (the simulator runs it); compiled kernels use the overload below."""
    return 0 if v < 0 else (top if v > top else v)


@overload(saturate, target="cuda")
def _ol_saturate(v, top):
    if isinstance(v, types.Integer) and isinstance(top, types.Integer):
        def impl(v, top):
            return 0 if v < 0 else (top if v > top else v)
        return impl
    if isinstance(v, types.Float):
        def impl(v, top):
            return min(max(v, 0.0), top)
        return impl


# check: saturated[1, 6](np.array([-3, 0, 4, 9, 12, 255], dtype=np.int64), np.array([-0.5, 0.25, 0.5, 1.5, 2.0, 0.75]), np.zeros(6, dtype=np.int64), np.zeros(6)) -> None ; arg2 == [0, 0, 4, 9, 10, 10] ; arg3 == [0.0, 0.25, 0.5, 1.0, 1.0, 0.75]
@cuda.jit
def saturated(counts, levels, out_counts, out_levels):
    i = cuda.grid(1)
    if i < counts.size:
        out_counts[i] = saturate(counts[i], 10)
        out_levels[i] = saturate(levels[i], 1.0)


# A device function compiled for one declared signature: a call converts its arguments to it
# (1.5 and 2.5 become 1 and 2), as numba-cuda's own dispatcher tests expect.
@cuda.jit("int64(int64, int64)", device=True)
def add_ints(x, y):
    return x + y


# check: typed_sums[1, 3](np.array([1.5, -2.5, 7.9]), np.array([2.5, 0.5, 0.2]), np.zeros(3, dtype=np.float64)) -> None ; arg2 == [3.0, -2.0, 7.0]
@cuda.jit
def typed_sums(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = add_ints(x[i], y[i])
