"""Lists in nopython code (Numba's reflected lists): [] then append, literals, extend, pop,
insert, len, indexing, iteration, `in`, sorted, comprehensions, np.array(list), returned lists."""
import numpy as np
from numba import njit


# check: positives(np.array([1.5, -2.0, 3.0, 0.0])) -> [1.5, 3.0]
# check: positives(np.array([-1.0])) -> []
# check: positives(np.zeros(0)) -> []
@njit
def positives(x):
    """The positive values of x, in order."""
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    return out


# check: indices_where(np.array([0, 3, 0, 5, 7]), 0) -> [1, 3, 4]
# check: indices_where(np.array([1, 2]), 9) -> [0, 1]
@njit
def indices_where(a, v):
    """Positions of the elements not equal to v."""
    idx = []
    for i in range(a.shape[0]):
        if a[i] != v:
            idx.append(i)
    return idx


# check: primes_below(20) -> [2, 3, 5, 7, 11, 13, 17, 19]
# check: primes_below(2) -> []
@njit
def primes_below(n):
    """Primes below n by trial division against the primes found so far."""
    primes = []
    for k in range(2, n):
        is_prime = True
        for p in primes:
            if p * p > k:
                break
            if k % p == 0:
                is_prime = False
                break
        if is_prime:
            primes.append(k)
    return primes


# check: list_to_array(5) -> [5, 16, 8, 4, 2, 1]
# check: list_to_array(1) -> [1]
@njit
def list_to_array(n):
    """Collect the Collatz sequence from n in a list, then convert it to an array."""
    seq = [n]
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        seq.append(n)
    return np.array(seq)


# check: literal_ops(2) -> (3, 1, 3, 20)
@njit
def literal_ops(x):
    a = [1, x, 3]
    return len(a), a[0], a[-1], a[1] * 10


# check: literal_float(1.5) -> [1.5, 3.0, 4.5]
@njit
def literal_float(x):
    a = [x, 2.0 * x, 0.25]
    a[2] = a[0] + a[1]
    return a


# check: extend_pop(3) -> (2, 0, [10, 20, 0, 1])
@njit
def extend_pop(n):
    a = [0]
    a.extend([10, 20])
    for i in range(n):
        a.append(i)
    last = a.pop()
    first = a.pop(0)
    return last, first, a


# check: pop_empty() raises IndexError
@njit
def pop_empty():
    a = [1]
    a.pop()
    return a.pop()


# check: insert_forms(5) -> [5, 1, 6, 2, 3, 7, -1]
@njit
def insert_forms(x):
    a = [1, 2, 3]
    a.insert(0, x)
    a.insert(2, x + 1)
    a.insert(100, -1)
    a.insert(-1, 7)
    return a


# check: index_errors(np.array([1, 2, 3]), 2) -> 3
# check: index_errors(np.array([1, 2, 3]), 3) raises IndexError
# check: index_errors(np.array([1, 2, 3]), -3) -> 1
# check: index_errors(np.array([1, 2, 3]), -4) raises IndexError
@njit
def index_errors(a, i):
    l = [v for v in a]
    return l[i]


# check: set_item(1, 9.5) -> [0.0, 9.5, 2.0]
# check: set_item(-1, 9.5) -> [0.0, 1.0, 9.5]
@njit
def set_item(i, v):
    l = [0.0, 1.0, 2.0]
    l[i] = v
    return l


# check: contains(3) -> (True, False)
# check: contains(4) -> (False, True)
@njit
def contains(x):
    l = [1, 3, 5]
    return x in l, x not in l


# check: sorted_copy(np.array([3.0, -1.0, 2.5, 0.0])) -> ([-1.0, 0.0, 2.5, 3.0], [3.0, -1.0, 2.5, 0.0])
# check: sorted_copy(np.zeros(0)) -> ([], [])
@njit
def sorted_copy(x):
    l = []
    for v in x:
        l.append(v)
    s = sorted(l)
    return s, l


# check: sort_in_place(np.array([5, 1, 4, 1])) -> [1, 1, 4, 5]
@njit
def sort_in_place(a):
    l = list(a)
    l.sort()
    return l


# check: sorted_reverse(np.array([2, 9, 4])) -> [9, 4, 2]
@njit
def sorted_reverse(a):
    l = [v for v in a]
    return sorted(l, reverse=True)


# check: comprehension_range(5) -> [0, 1, 4, 9, 16]
# check: comprehension_range(0) -> []
@njit
def comprehension_range(n):
    return [i * i for i in range(n)]


# check: comprehension_filter(10) -> [0, 3, 6, 9]
@njit
def comprehension_filter(n):
    return [i for i in range(n) if i % 3 == 0]


# check: comprehension_array(np.array([1.0, 4.0, 9.0])) -> [1.0, 2.0, 3.0]
@njit
def comprehension_array(x):
    return [np.sqrt(v) for v in x]


# check: comprehension_to_array(4) -> [0.0, 0.5, 1.0, 1.5]
@njit
def comprehension_to_array(n):
    return np.array([0.5 * i for i in range(n)])


# check: sum_list(np.array([1, 2, 3, 4])) -> (20, 4, 20, 2, 8)
@njit
def sum_list(a):
    l = [2 * v for v in a]
    s = 0
    for v in l:
        s += v
    return s, len(l), sum(l), min(l), max(l)


# check: enumerate_list(3) -> 50
@njit
def enumerate_list(n):
    l = [10 * i for i in range(n)]
    acc = 0
    for i, v in enumerate(l):
        acc += i * v
    return acc


# check: list_of_tuples(3) -> (4.5, (2, 1.0))
@njit
def list_of_tuples(n):
    pairs = []
    for i in range(n):
        pairs.append((i, i * 0.5))
    total = 0.0
    for i, x in pairs:
        total += i + x
    return total, pairs[-1]


# check: list_methods(np.array([3, 1, 3, 2])) -> (2, 3, [2, 3, 1])
@njit
def list_methods(a):
    l = list(a)
    c = l.count(3)
    k = l.index(2)
    l.remove(3)
    l.reverse()
    return c, k, l


# check: list_concat(2) -> ([1, 2, 2, 2, 2], 4)
@njit
def list_concat(n):
    a = [1, 2]
    b = [n] * 3
    return a + b, len(a * 2)


# check: list_slices(6) -> ([1, 2], [5, 4, 3, 2, 1, 0], [0, 2, 4], [4, 5])
@njit
def list_slices(n):
    l = list(range(n))
    return l[1:3], l[::-1], l[::2], l[-2:]


# check: delete_items(np.array([1, 2, 3, 4, 5])) -> [2, 3, 4]
@njit
def delete_items(a):
    l = list(a)
    del l[0]
    del l[-1]
    return l


# check: stack_queue(4) -> [0, 1, 2, 3]
@njit
def stack_queue(n):
    """Breadth-first numbering of a complete binary tree with n nodes, using a list as a queue."""
    order = []
    queue = [0]
    while len(queue) > 0:
        k = queue.pop(0)
        order.append(k)
        for c in (2 * k + 1, 2 * k + 2):
            if c < n:
                queue.append(c)
    return order


# check: list_to_array_2d(2) -> [[0.0, 1.0, 2.0], [1.0, 2.0, 3.0]]
@njit
def list_to_array_2d(n):
    rows = [[float(i + j) for j in range(3)] for i in range(n)]
    out = np.empty((n, 3))
    for i in range(n):
        for j in range(3):
            out[i, j] = rows[i][j]
    return out


# check: list_bools(np.array([1, -2, 3])) -> ([True, False, True], 2)
@njit
def list_bools(a):
    flags = [v > 0 for v in a]
    count = 0
    for f in flags:
        if f:
            count += 1
    return flags, count


# check: empty_len(0) -> 0
# check: empty_len(3) -> 0
@njit
def empty_len(n):
    l = [0.0 for _ in range(n)]
    l.clear()
    return len(l)
