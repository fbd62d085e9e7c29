"""Python's `heapq` on lists, as Numba supports it: the heap's list holds its elements in the
same order as Numba's (and CPython's) after the same pushes and pops, tuples order by their
first element and then the next, and a shortest-path search runs on `(distance, node)`
pairs."""
import heapq
from heapq import heappop, heappush

import math

import numpy as np
from numba import njit


# check: heap_sort(np.array([5.0, 1.0, 4.0, 1.5, 9.0, 2.0, 6.0, 5.0, 3.0])) -> [1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 5.0, 6.0, 9.0]
# check: heap_sort(np.array([3.0])) -> [3.0]
@njit
def heap_sort(x):
    h = [x[0]]
    for i in range(1, len(x)):
        heapq.heappush(h, x[i])
    out = []
    while len(h) > 0:
        out.append(heapq.heappop(h))
    return out


# The list itself after pushes, a pop, a replace and two push-pops (one that returns the item
# pushed, one that returns the old top).
# check: layout(np.array([5.0, 1.0, 4.0, 1.5, 9.0, 2.0, 6.0, 5.0, 3.0])) -> ([2.5, 3.0, 4.0, 5.0, 9.0, 100.0, 6.0, 5.0], 1.0, 1.5, 0.5, 2.0)
@njit
def layout(x):
    h = [x[0]]
    for v in x[1:]:
        heappush(h, v)
    a = heappop(h)
    b = heapq.heapreplace(h, 2.5)
    c = heapq.heappushpop(h, 0.5)
    d = heapq.heappushpop(h, 100.0)
    return h, a, b, c, d


# check: heapified(np.array([5, 1, 4, 1, 9, 2, 6, 5, 3])) -> [1, 1, 2, 3, 9, 4, 6, 5, 5]
# check: heapified(np.array([2, 1])) -> [1, 2]
@njit
def heapified(x):
    l = list(x)
    heapq.heapify(l)
    return l


# check: extremes(np.array([5.0, 1.0, 4.0, 1.5, 9.0, 2.0, 6.0, 5.0, 3.0]), 3) -> ([9.0, 6.0, 5.0], [1.0, 1.5, 2.0])
# check: extremes(np.array([5.0, 1.0, 4.0]), 0) -> ([], [])
# check: extremes(np.array([5.0, 1.0, 4.0]), 7) -> ([5.0, 4.0, 1.0], [1.0, 4.0, 5.0])
@njit
def extremes(x, k):
    return heapq.nlargest(k, x), heapq.nsmallest(k, x)


# Dijkstra's shortest paths over an edge list, with `(distance, node)` pairs on the heap.
# check: dijkstra(5, np.array([0, 0, 1, 2, 1, 3]), np.array([1, 2, 2, 3, 3, 4]), np.array([4.0, 1.0, 2.0, 5.0, 10.0, 3.0]), 0) -> [0.0, 4.0, 1.0, 6.0, 9.0]
# check: dijkstra(3, np.array([0]), np.array([1]), np.array([2.5]), 0) -> [0.0, 2.5, math.inf]
@njit
def dijkstra(n, edges_from, edges_to, weights, source):
    dist = np.full(n, np.inf)
    dist[source] = 0.0
    heap = [(0.0, source)]
    while len(heap) > 0:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for k in range(len(edges_from)):
            if edges_from[k] == u:
                v = edges_to[k]
                nd = d + weights[k]
                if nd < dist[v]:
                    dist[v] = nd
                    heapq.heappush(heap, (nd, v))
    return dist


# Ties on the first element order by the second; pushing an int onto a float heap converts it.
# check: pairs() -> [(1.0, 2), (1.0, 3), (2.0, 0), (3.0, 1)]
@njit
def pairs():
    h = [(3.0, 1)]
    heapq.heappush(h, (1.0, 3))
    heapq.heappush(h, (2.0, 0))
    heapq.heappush(h, (1.0, 2))
    out = []
    while h:
        out.append(heapq.heappop(h))
    return out


# check: pop_empty(1) raises IndexError
# check: pop_empty(0) -> 7
@njit
def pop_empty(k):
    h = [7]
    if k > 0:
        h.pop()
    return heapq.heappop(h)
