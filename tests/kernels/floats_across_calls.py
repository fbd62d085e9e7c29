"""Floating-point values that stay live across calls (allocations, frees, calls to other
compiled functions, libm, list appends) in every control-flow shape: statistics computed
before an allocation and used after it, accumulators carried around loops that call, values
reaching a join from a path that called and one that did not, complex and float32 values,
tuples of floats, and values reaching an `except` handler after a call raised."""
import math

import numpy as np
from numba import njit


@njit
def scale(x, k):
    return x * k


# check: standardized_tail(np.array([1.0, 2.0, 4.0, 8.0, 16.0])) -> 1.7964271590115777
# check: standardized_tail(np.array([3.0, 3.0, 5.0])) -> 1.414213562373095
@njit
def standardized_tail(x):
    """Mean and spread computed by loops before the allocation, used by the loop after it."""
    n = x.shape[0]
    mean = 0.0
    for i in range(n):
        mean += x[i]
    mean /= n
    var = 0.0
    for i in range(n):
        d = x[i] - mean
        var += d * d
    std = math.sqrt(var / n)
    out = np.empty_like(x)
    for i in range(n):
        out[i] = (x[i] - mean) / std
    return out[n - 1]


# check: accumulate_with_scratch(5, 0.5) -> 7.5
# check: accumulate_with_scratch(0, 0.5) -> 0.0
@njit
def accumulate_with_scratch(reps, w):
    """An accumulator and a weight carried through a loop that allocates on every pass."""
    s = 0.0
    for r in range(reps):
        tmp = np.zeros(3)
        tmp[1] = r * w
        s += tmp[1] + w
    return s


# check: calls_in_branch(np.array([1.0, -2.0, 3.0, -4.0])) -> -12.5
@njit
def calls_in_branch(x):
    """A running value that reaches the join both from a path that called and one that did not."""
    acc = 0.5
    for i in range(x.shape[0]):
        if x[i] < 0.0:
            acc += scale(x[i], 2.0)
        else:
            acc -= x[i] * 0.25
    return acc


# check: libm_in_loop(np.array([0.0, 1.0, 2.0])) -> (11.107337927389695, 2.0)
@njit
def libm_in_loop(x):
    """Two accumulators live across a libm call inside the loop."""
    s = 0.0
    m = -1.0
    for v in x:
        s += math.exp(v)
        m = max(m, v)
    return s, m


# check: complex_across_alloc(3) -> (6+3j)
@njit
def complex_across_alloc(n):
    """A complex accumulator (two float parts) live across an allocation."""
    z = 0j
    for k in range(n):
        z += complex(k, 1.0)
    buf = np.ones(n)
    for k in range(n):
        z += buf[k]
    return z


# check: float32_across_call(np.array([1.5, 2.5, 3.0], dtype=np.float32)) -> 14.0
@njit
def float32_across_call(x):
    """A float32 sum live across an allocation, then folded into the result."""
    s = np.float32(0.0)
    for v in x:
        s += v
    y = np.empty(x.shape[0], dtype=np.float32)
    for i in range(x.shape[0]):
        y[i] = x[i] + s
    return float(s) + float(y[0]) - float(x[0])


# check: tuple_across_calls(4) -> (10.0, 2.5, 3.0)
@njit
def tuple_across_calls(n):
    """A tuple of floats built before two allocations and read after them."""
    total = 0.0
    for k in range(n + 1):
        total += k
    pair = (total, total / n)
    a = np.zeros(n)
    b = np.ones(n)
    return pair[0], pair[1], a.sum() + b.sum() - 1.0


# check: list_growth_mean(6) -> 2.5
@njit
def list_growth_mean(n):
    """A float sum carried through a loop that appends to a list (a call when it grows)."""
    vals = [0.0]
    s = 0.0
    for k in range(1, n):
        vals.append(k * 1.0)
        s += vals[-1]
    return s / len(vals)


# check: handler_sees_float(np.array([1.0, 2.0, 0.0, 4.0])) -> (3.0, 2)
# check: handler_sees_float(np.array([1.0, 2.0])) -> (3.0, -1)
@njit
def handler_sees_float(x):
    """The float value where a call raised reaches the handler."""
    s = 0.0
    at = -1
    try:
        for i in range(x.shape[0]):
            tmp = np.empty(2)
            tmp[0] = 1.0 / x[i]
            s += x[i]
    except Exception:
        at = i
    return s, at


# check: views_and_floats(np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0]), 3) -> 22.0
@njit
def views_and_floats(a, w):
    """A float total carried through a loop that takes (and releases) a view per pass."""
    total = 0.0
    for i in range(a.shape[0] - w + 1):
        win = a[i:i + w]
        m = win[0]
        for j in range(1, w):
            if win[j] > m:
                m = win[j]
        total += m
    return total
