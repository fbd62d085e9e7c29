"""More lists: loops over list literals, sums of comprehensions, lists passed between
compiled functions (mutated by the callee), lists of arrays and of tuples, nested lists,
sorting tuples, and the errors list methods raise."""
import numpy as np
from numba import njit


# check: literal_loop() -> 6.5
@njit
def literal_loop():
    s = 0.0
    for x in [1.0, 2.0, 3.5]:
        s += x
    return s


# check: generator_sums(np.array([1.0, 3.0, 5.0])) -> (35.0, 8.0)
@njit
def generator_sums(a):
    return sum([x * x for x in a]), sum([x for x in a if x > 2.0])


@njit
def push_squares(out, n):
    for i in range(n):
        out.append(i * i)


@njit
def drop_odd(xs):
    k = 0
    while k < len(xs):
        if xs[k] % 2 == 1:
            xs.pop(k)
        else:
            k += 1
    return len(xs)


# check: callee_mutates(5) -> (3, [0, 4, 16])
# check: callee_mutates(0) -> (0, [])
@njit
def callee_mutates(n):
    xs = [7]
    push_squares(xs, n)
    left = drop_odd(xs)
    return left, xs


@njit
def make_list(n):
    return [float(i) / 2 for i in range(n)]


# check: list_from_callee(4) -> (8.0, 5)
@njit
def list_from_callee(n):
    xs = make_list(n)
    ys = make_list(n + 1)
    return sum(xs) + sum(ys), len(ys)


# check: arrays_in_list(3) -> ([0.0, 2.0, 6.0], [2.0, 2.0, 2.0])
@njit
def arrays_in_list(n):
    """A list of arrays of growing length; their totals."""
    parts = []
    for i in range(n):
        parts.append(np.full(i + 1, float(i)))
    totals = [0.0 for p in parts]
    for k in range(len(parts)):
        s = 0.0
        for v in parts[k]:
            s += v
        totals[k] = s
    return totals, parts[-1]


# check: rows_of(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])) -> [[5.0, 6.0], [3.0, 4.0], [1.0, 2.0]]
@njit
def rows_of(m):
    rows = [m[i] for i in range(m.shape[0])]
    rows.reverse()
    out = np.empty(m.shape)
    for i in range(len(rows)):
        out[i, :] = rows[i]
    return out


# check: sort_pairs(np.array([3, 1, 2, 1]), np.array([0.5, 2.0, 1.0, 1.5])) -> ((1, 1.5), (3, 0.5), (3, 0.5), (1, 1.5))
@njit
def sort_pairs(keys, vals):
    pairs = [(keys[i], vals[i]) for i in range(keys.shape[0])]
    pairs.sort()
    desc = sorted(pairs, reverse=True)
    return pairs[0], pairs[-1], desc[0], desc[-1]


# check: stable_sort(np.array([2.0, 1.0, 2.0, 0.0, 1.0])) -> ([(0, 3), (1, 1), (1, 4), (2, 0), (2, 2)], [(2, 2), (2, 0), (1, 4), (1, 1), (0, 3)])
@njit
def stable_sort(a):
    l = [(int(a[i]), i) for i in range(a.shape[0])]
    s = sorted(l)
    r = sorted(l, reverse=True)
    return s, r


# check: grid(3, 2) -> (12, [-1, 3], 3)
@njit
def grid(n, m):
    g = [[i * m + j for j in range(m)] for i in range(n)]
    g[1][0] = -1
    total = 0
    for row in g:
        for v in row:
            total += v
    return total, g[1], len(g)


# check: pairs_product(3) -> [(1, 0), (2, 1)]
@njit
def pairs_product(n):
    return [(i, j) for i in range(n) for j in range(i) if (i + j) % 2 == 1]


# check: bad_index(2) -> [1, 2, 9]
# check: bad_index(3) raises IndexError
# check: bad_index(-4) raises IndexError
@njit
def bad_index(i):
    xs = [1, 2, 3]
    xs[i] = 9
    return xs


# check: remove_missing(2) -> [1, 3]
# check: remove_missing(5) raises ValueError
@njit
def remove_missing(x):
    xs = [1, 2, 3]
    xs.remove(x)
    return xs


# check: index_missing(3) -> 2
# check: index_missing(4) raises ValueError
@njit
def index_missing(x):
    xs = [1, 2, 3]
    return xs.index(x)


# check: min_empty(0) raises StopIteration
# check: min_empty(2) -> (0.0, 1.0)
@njit
def min_empty(n):
    xs = [float(i) for i in range(n)]
    return min(xs), max(xs)


# check: pop_at(np.array([4, 5, 6]), -1) -> (6, [4, 5])
# check: pop_at(np.array([4, 5, 6]), 3) raises IndexError
@njit
def pop_at(a, i):
    xs = list(a)
    v = xs.pop(i)
    return v, xs


# check: extend_self(3) -> [0, 1, 2, 0, 1, 2, 10, 20, 0, 1]
@njit
def extend_self(n):
    xs = list(range(n))
    xs.extend(xs)
    xs.extend((10, 20))
    xs.extend(np.arange(2))
    return xs


# check: copy_is_independent(np.array([1.0, 2.0])) -> ([-1.0, 2.0], [1.0, 2.0, 3.0], 2)
@njit
def copy_is_independent(a):
    xs = list(a)
    ys = xs.copy()
    ys.append(3.0)
    zs = xs
    zs[0] = -1.0
    return xs, ys, len(zs)


# check: bool_and_ints(np.array([1, 0, 3])) -> (2, 2, True, [1.0, 2.5])
@njit
def bool_and_ints(a):
    flags = [v != 0 for v in a]
    n = sum(flags)
    c = flags.count(True)
    return n, c, True in flags, [1, 2.5]


# check: histogram_buckets(np.array([0.1, 0.5, 0.55, 0.9, 0.95, 0.99]), 4) -> ([1, 0, 2, 3], [0.5, 0.55])
@njit
def histogram_buckets(x, nb):
    """Values grouped into nb equal buckets of [0, 1), each bucket a list."""
    buckets = [[0.0 for _ in range(0)] for _ in range(nb)]
    for v in x:
        k = min(int(v * nb), nb - 1)
        buckets[k].append(v)
    return [len(b) for b in buckets], buckets[2]


# check: range_values(5) -> (5, 10, 0, 4, True, False, [0, 1, 2, 3, 4], 3)
@njit
def range_values(n):
    """A range used as a value: its length, sum, min, max, membership and its numbers."""
    r = range(n)
    s = range(1, 10, 3)
    return len(r), sum(r), min(r), max(r), 3 in r, n in r, list(r), len(s)


# check: drain_queue(3) -> (1, 0, 4.5, False)
# check: drain_queue(0) -> (0, 1, 0.0, False)
@njit
def drain_queue(n):
    """A list's truth value: `if pending`, `while pending`, `not pending`, `bool(pending)`."""
    pending = [0.0]
    pending.pop()
    for i in range(n):
        pending.append(i * 1.5)
    started = 1 if pending else 0
    idle = 1 if not pending else 0
    total = 0.0
    while pending:
        total += pending.pop()
    return started, idle, total, bool(pending)


# `del l[a:b]` (Numba deletes slices of step 1 only; twinjit also takes other steps, with
# Python's result: `tests/api.rs`), bounds past either end.
# check: del_slices(10) -> [0, 2, 0, 10, 4, 0, 70, 80, 90, 8, 0, 10, 20, 30, 40, 50, 60, 70, 10, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 7, 30, 40, 50, 60, 70, 80, 90]
# check: del_slices(0) -> [0, 0, 0, 0, 0, 0]
@njit
def del_slices(n):
    out = []
    for form in range(6):
        l = [k * 10 for k in range(n)]
        if form == 0:
            del l[:]
        elif form == 1:
            del l[2:]
        elif form == 2:
            del l[1:7]
        elif form == 3:
            del l[-2:100]
        elif form == 4:
            del l[5:3]
        else:
            del l[-100:3]
        out.append(len(l))
        out.extend(l)
    return out


# np.array of a list of rows: nested comprehensions, a list grown by append, rows that are 1-D
# arrays; a ragged list and an empty one raise, as in Numba.
# check: grid_of_products(3) -> [[0, 0, 0], [0, 1, 2], [0, 2, 4]]
@njit
def grid_of_products(n):
    return np.array([[i * j for j in range(n)] for i in range(n)])


# check: grown_rows(2) -> [[1.5, 2.0], [3.0, 4.0], [5.0, 6.0]]
# check: grown_rows(3) raises ValueError
@njit
def grown_rows(k):
    rows = [[1.5, 2.0], [3.0, 4.0]]
    rows.append([5.0, 6.0, 7.0][:k])
    return np.array(rows)


# check: rows_of_arrays(3) -> [[0, 0, 0], [0, 1, 2], [0, 2, 4]]
@njit
def rows_of_arrays(n):
    return np.array([np.array([x * y for x in range(n)]) for y in range(n)])


# check: no_rows(0) raises IndexError
@njit
def no_rows(n):
    rows = [[1.0]]
    rows.pop()
    return np.array(rows)


# check: cube_of_products(2) -> [[[0, 0], [0, 0]], [[0, 0], [0, 1]]]
@njit
def cube_of_products(n):
    return np.array([[[i * j * k for k in range(n)] for j in range(n)] for i in range(n)])


# Slice assignment: a step of 1 replaces the slice (the list grows or shrinks), another step
# replaces item by item, and a count that differs raises, as in Python. (`l[a:b] = l` is left
# out: Python reads the source first, Numba 0.68 does not, and their results differ.)
# check: replace_slices(6, 1, 3) -> ([0, 100, 101, 102, 103, 3, 4, 5], [0, 7, 3, 4, 5], [])
# check: replace_slices(4, 3, 0) -> ([0, 1, 2, 100, 101, 102, 103, 3], [0, 1, 2, 7, 3], [])
@njit
def replace_slices(n, lo, hi):
    grown = list(range(n))
    grown[lo:hi] = [100, 101, 102, 103]
    shrunk = list(range(n))
    shrunk[lo:hi] = [7]
    cleared = list(range(n))
    cleared[:] = [0][:0]
    return grown, shrunk, cleared


# check: replace_every_other(6) -> [0, 1, 20, -2, 40, -1]
# check: replace_every_other(5) -> [0, 1, -2, 3, -1]
@njit
def replace_every_other(n):
    l = list(range(n))
    v = [x * 10 for x in l[::2]]
    l[::2] = v[:3]
    l[-1:-4:-2] = [-1, -2]
    return l


# check: extended_slice_mismatch(5) raises ValueError
@njit
def extended_slice_mismatch(n):
    l = list(range(n))
    l[::2] = [1, 2]
    return l


# check: rows_moved(4) -> (4, 2, 4)
@njit
def rows_moved(n):
    rows = []
    for i in range(n):
        rows.append(np.arange(2) + i)
    rows[1:3] = rows[2:4]
    return len(rows), rows[1][0], rows[2][1]


# `+` of lists of two number types is a list of their promotion; `+=` extends the list itself
# (an alias sees it, and the items take the list's type).
# check: concatenations(3) -> ([0.0, 1.0, 2.0, 0.5, 0.5], [0, 1, 2, 0, 0], [0.5, 0.5, 7.0, 8.0])
@njit
def concatenations(n):
    ints = list(range(n))
    floats = [0.5] * 2
    joined = ints + floats
    alias = ints
    ints += floats
    floats += [7, 8]
    return joined, alias, floats


# Lists compare as Python's do: `==` by length and elements, an order by the first pair of
# elements that differ (their `==`, then `<`), else by length; a shorter prefix is smaller.
# check: ranked(3, 3) -> (True, False, False, True, False, True)
# check: ranked(3, 4) -> (False, True, True, True, False, False)
# check: ranked(4, 3) -> (False, True, False, False, True, True)
# check: ranked(0, 0) -> (True, False, False, True, False, True)
@njit
def ranked(n, m):
    a = [i * i for i in range(n)]
    b = [i * i for i in range(m)]
    return a == b, a != b, a < b, a <= b, a > b, a >= b


# check: first_difference_decides(0) -> (False, True, True)
# check: first_difference_decides(2) -> (False, True, True)
@njit
def first_difference_decides(k):
    a = [1.0, 2.0, 3.0]
    b = [1.0, 2.0, 3.0, -1.0]
    b[k] = 0.5
    return a < b, a > b, a != b


# A NaN element equals nothing, so the lists differ there, and neither orders before the other.
# check: nan_elements(1.0) -> (False, True, False, False)
# check: nan_elements(2.0) -> (False, True, True, False)
@njit
def nan_elements(second):
    a = [1.0, np.nan]
    b = [second, np.nan]
    return a == b, a != b, a < b, a > b


# Lists of tuples compare tuple by tuple; an int list equals a float list of the same values.
# check: lists_of_pairs(5) -> (True, False, True)
# check: lists_of_pairs(4) -> (False, True, True)
@njit
def lists_of_pairs(last):
    pairs = [(1, 2), (3, 4)]
    other = [(1, 2), (3, last)]
    ints = [1, 2, 3]
    floats = [1.0, 2.0, 3.0]
    return pairs < other, pairs == [(1, 2), (3, 4)] and last == 4 or pairs > other, ints == floats


# `l.index(x, start, stop)` searches `l[start:stop]` (negative bounds count from the end, then
# clamp) and returns the index in `l`.
# check: index_between(5, 1, 5) -> 2
# check: index_between(5, -2, 100) -> 4
# check: index_between(3, -100, 2) -> 1
# check: index_between(5, 5, 6) raises ValueError
# check: index_between(9, 2, 2) raises ValueError
@njit
def index_between(x, start, stop):
    a = [5, 3, 5, 7, 5, 9]
    return a.index(x, start, stop)


# check: index_from(5, 3) -> 4
# check: index_from(5, -1) raises ValueError
@njit
def index_from(x, start):
    a = [5, 3, 5, 7, 5, 9]
    return a.index(x, start)
