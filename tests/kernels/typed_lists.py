"""`numba.typed.List` inside compiled functions, the list Numba recommends over reflected lists:
`List()`, `List.empty_list(item_type)`, `List(iterable)`, with the list methods. Inside a
compiled function it is the same list as `[]`."""
import numba
import numpy as np
from numba import njit, types
from numba.typed import List


# check: squares_total(5) -> (30, 5)
@njit
def squares_total(n):
    out = List()
    for i in range(n):
        out.append(i * i)
    s = 0
    for v in out:
        s += v
    return s, len(out)


# check: empty_then_filled(4) -> (4, -1.0, 1.5, 0.5)
@njit
def empty_then_filled(n):
    xs = List.empty_list(types.float64)
    for i in range(n):
        xs.append(i / 2)
    xs.insert(0, -1.0)
    last = xs.pop()
    return len(xs), xs[0], last, sum(xs)


# An empty typed list has its item type from the start: len 0, and the sum is a float.
# check: stays_empty() -> (0, 0.5)
@njit
def stays_empty():
    xs = List.empty_list(types.float64, allocated=16)
    return len(xs), sum(xs) + 0.5


# check: from_array(np.array([3.0, 1.0, 2.0])) -> (1.0, 3.0, 20.0)
@njit
def from_array(a):
    xs = List(a)
    xs.sort()
    ys = numba.typed.List()
    for x in xs:
        ys.append(x * 10)
    return xs[0], xs[2], ys[1]


# A typed list of arrays, declared by its item type: C-contiguous 2-D blocks, or 1-D arrays of
# any layout (views appended).
@njit
def stacked_blocks(n):
    blocks = List.empty_list(types.float64[:, ::1])
    for i in range(n):
        blocks.append(np.ones((i + 1, 2)) * i)
    total = 0.0
    rows = 0
    for b in blocks:
        total += b.sum()
        rows += b.shape[0]
    return total, rows, len(blocks)


@njit
def strided_parts(x):
    parts = List.empty_list(types.int64[:])
    parts.append(x[::2])
    parts.append(x[1:4])
    parts.append(x[::-1])
    return parts[0].sum(), parts[1].sum(), parts[2][0]


# check: stacked_blocks(4) -> (40.0, 10, 4)
# check: strided_parts(np.array([3, 1, 4, 1, 5, 9, 2, 6])) -> (14, 6, 6)
