"""try / except / else / finally in the forms Numba compiles: a bare `except:` and
`except Exception:`, catching what the same function raises, what a called function raises and
failed checks (IndexError, ZeroDivisionError); the variables' values where the exception was
raised; `finally` on every way out; nested `try`s; loops inside a `try` and `try` inside loops
(`prange` ones run serially, as in Numba); arrays and lists made in a body that raised."""
import numpy as np
from numba import njit, prange


class ParseError(Exception):
    pass


@njit
def checked_half(x):
    if x % 2 == 1:
        raise ParseError("odd value", x)
    return x // 2


# check: halves_until_odd(np.array([4, 8, 2, 7, 6])) -> (7, 3)
# check: halves_until_odd(np.array([4, 8])) -> (6, 2)
@njit
def halves_until_odd(xs):
    """Counts the elements processed before a callee raised (the value where it raised)."""
    total = 0
    done = 0
    try:
        for x in xs:
            total += checked_half(x)
            done += 1
    except Exception:
        pass
    return total, done


# check: safe_ratio(7, 2) -> 3
# check: safe_ratio(7, 0) -> -1
@njit
def safe_ratio(a, b):
    try:
        return a // b
    except Exception:
        return -1


# check: lookup_or_default(np.array([1.5, 2.5, 3.5]), 1) -> 102.75
# check: lookup_or_default(np.array([1.5, 2.5, 3.5]), -1) -> 103.75
# check: lookup_or_default(np.array([1.5, 2.5, 3.5]), 5) -> -0.75
@njit(boundscheck=True)
def lookup_or_default(a, k):
    """A bounds check caught, with `else` and `finally`."""
    v = 0.0
    try:
        v = a[k]
    except:  # noqa: E722
        v = -1.0
    else:
        v += 100.0
    finally:
        v += 0.25
    return v


# check: skip_and_stop(6) -> 504
# check: skip_and_stop(2) -> 201
@njit
def skip_and_stop(n):
    """`finally` runs on `continue` and `break` out of the `try`."""
    s = 0
    for i in range(n):
        try:
            if i == 2:
                continue
            if i == 4:
                break
            s += i
        finally:
            s += 100
    return s


# check: tally_failures(6) -> 601001
# check: tally_failures(3) -> 299984
@njit
def tally_failures(n):
    s = 0
    for i in range(n):
        try:
            s += 10 // (i - 3)
        except Exception:
            s += 1000
            continue
        else:
            s += 1
        finally:
            s += 100000
    return s


# check: last_index(3, 5) -> 3
# check: last_index(1, 3) -> 1
# check: last_index(7, 3) -> 2
@njit
def last_index(x, n):
    """A loop variable read after the handler has the value it had at the raise."""
    i = -1
    try:
        for i in range(n):
            if i == x:
                checked_half(2 * i + 1)
    except:  # noqa: E722
        pass
    return i


# check: nested_handlers(1, 2) -> 126
# check: nested_handlers(1, 0) -> 126
# check: nested_handlers(0, 5) -> 12
@njit
def nested_handlers(x, y):
    trail = 0
    try:
        try:
            trail = 1
            checked_half(x)
            trail = trail * 10 + 2
        except Exception:
            trail = trail * 10 + 2
            checked_half(y + 1)
            trail = trail * 10 + 3
    except Exception:
        trail = trail * 10 + 6
    return trail


# check: raise_in_try(True) -> 321
# check: raise_in_try(False) -> 123
@njit
def raise_in_try(flag):
    try:
        if flag:
            raise ValueError("caught below")
    except Exception:
        return 321
    return 123


# check: uncaught_after(0) raises ParseError: ('odd value', 1)
# check: uncaught_after(3) -> 2
@njit
def uncaught_after(x):
    """A handler's own raise is not caught by its own `try`; code after the try raises."""
    try:
        checked_half(x)
        res = 1
    except Exception:
        res = 2
    if x == 0:
        checked_half(1)
    return res


# check: arrays_in_try(4, 2) -> 13.0
# check: arrays_in_try(4, 9) -> 3.0
# check: arrays_in_try(3, -1) -> 11.0
@njit(boundscheck=True)
def arrays_in_try(n, k):
    """Arrays allocated in the body and abandoned by the exception are freed."""
    a = np.ones(n)
    t = 0.0
    try:
        b = np.ones(n) * 2.0
        b[k] = 7.0
        t = b.sum() - a.sum()
    except Exception:
        t = -1.0
    return a.sum() + t


# check: keeps_array(3, True) -> [1.0, 2.0, 3.0]
# check: keeps_array(3, False) -> [10.0, 20.0, 30.0]
@njit
def keeps_array(n, fail):
    """An array assigned before the raise, returned from the handler."""
    out = np.arange(1.0, n + 1.0)
    try:
        if fail:
            raise ValueError("keep the old one")
        out = out * 10.0
    except Exception:
        return out
    return out


# check: loop_of_tries(np.array([4.0, 0.0, 2.0, 0.0, 1.0])) -> (3.0, 2)
@njit
def loop_of_tries(xs):
    total = 0.0
    bad = 0
    for x in xs:
        try:
            total += 2.0 // x
        except Exception:
            bad += 1
    return total, bad


# check: empty_try(5) -> 5
@njit
def empty_try(x):
    try:
        pass
    except Exception:
        pass
    return x


# check: finally_on_return(3) -> (3, 1)
@njit
def finally_on_return(x):
    box = np.zeros(1)
    return twice_guarded(x, box), int(box[0])


@njit
def twice_guarded(x, box):
    try:
        return x
    finally:
        box[0] += 1.0


# check: guarded_parallel_sum(np.array([1.0, 2.0, 4.0]), 2.0) -> 3.5
# check: guarded_parallel_sum(np.array([1.0, 2.0, 4.0]), 0.0) -> -1.0
@njit(parallel=True)
def guarded_parallel_sum(a, k):
    """A `prange` loop inside a `try` runs serially (as in Numba), with the same result."""
    s = 0.0
    try:
        for i in prange(a.shape[0]):
            s += a[i] / k
    except Exception:
        s = -1.0
    return s


# check: per_item_guard(np.array([2.0, 0.0, 4.0])) -> [0.5, -1.0, 0.25]
@njit(parallel=True)
def per_item_guard(a):
    """A `try` inside a `prange` body: the loop runs serially (as in Numba)."""
    out = np.zeros(a.shape[0])
    for i in prange(a.shape[0]):
        try:
            out[i] = 1.0 / a[i]
        except Exception:
            out[i] = -1.0
    return out


# check: guarded_callee_list(4, 2) -> ([0.0, 1.0, 2.0, 3.0], [0.0, 4.0])
# check: guarded_callee_list(4, 7) -> ([0.0, 1.0, 2.0, 3.0], [-1.0])
@njit
def guarded_callee_list(n, k):
    """A list built in the body survives the handler; the failing callee's list is abandoned."""
    xs = [float(i) for i in range(n)]
    try:
        ys = pick_twice(xs, k)
    except Exception:
        ys = [-1.0]
    return xs, ys


@njit
def pick_twice(xs, k):
    out = [0.0]
    out.append(xs[k] * 2.0)
    return out
