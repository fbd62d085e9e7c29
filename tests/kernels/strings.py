"""Strings in compiled code: constants, module-level names, defaults and arguments. Numba
types them as `unicode_type`; twinjit knows each string when it compiles (its value is part of
the type), so comparisons, `len`, `in` and `+` of strings are decided at compile time and a
function taking a string is compiled once per string it receives."""

import numpy as np
from numba import njit

MODE = "clip"
METHODS = ("nearest", "linear")


@njit
def smooth_value(x, kind="linear"):
    if kind == "linear":
        return 0.5 * x
    elif kind == "square":
        return x * x
    return x


@njit
def smooth_all(x):
    return smooth_value(x) + smooth_value(x, "square") + smooth_value(x, kind="none")


# check: smooth_all(3.0) -> 13.5


@njit
def apply_mode(a, lo, hi):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        v = a[i]
        if MODE == "clip":
            v = min(max(v, lo), hi)
        out[i] = v
    return out


# check: apply_mode(np.array([-2.0, 0.5, 3.0]), 0.0, 1.0) -> [0.0, 0.5, 1.0]


@njit
def transform(a, method):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        if method == "double":
            out[i] = 2.0 * a[i]
        elif method == "negate":
            out[i] = -a[i]
        else:
            out[i] = a[i]
    return out


# check: transform(np.array([1.0, -2.0]), "double") -> [2.0, -4.0]
# check: transform(np.array([1.0, -2.0]), "negate") -> [-1.0, 2.0]
# check: transform(np.array([1.0, -2.0]), "keep") -> [1.0, -2.0]


@njit
def interpolate(xs, ys, x, method="linear"):
    if method not in METHODS:
        raise ValueError("unknown interpolation method")
    i = 0
    while i < xs.shape[0] - 2 and xs[i + 1] < x:
        i += 1
    if method == "nearest":
        if x - xs[i] < xs[i + 1] - x:
            return ys[i]
        return ys[i + 1]
    t = (x - xs[i]) / (xs[i + 1] - xs[i])
    return ys[i] + t * (ys[i + 1] - ys[i])


# check: interpolate(np.array([0.0, 1.0, 2.0]), np.array([0.0, 10.0, 30.0]), 1.5) -> 20.0
# check: interpolate(np.array([0.0, 1.0, 2.0]), np.array([0.0, 10.0, 30.0]), 1.2, "nearest") -> 10.0
# check: interpolate(np.array([0.0, 1.0, 2.0]), np.array([0.0, 10.0, 30.0]), 1.2, "cubic") raises ValueError: unknown interpolation method


@njit
def name_length(name):
    return len(name)


# check: name_length("energy") -> 6
# check: name_length("") -> 0
# check: name_length("π·r²") -> 4


@njit
def label(kind):
    prefix = "value"
    return prefix + "_" + kind


# check: label("pos") -> 'value_pos'
# check: label("neg") -> 'value_neg'


@njit
def describe(x, unit):
    print("x =", x, unit)
    return unit


# check: describe(2.5, "m") -> 'm'


@njit
def ordered(a, b):
    return a < b, a == b, a >= b


# check: ordered("apple", "banana") -> (True, False, False)
# check: ordered("pear", "pear") -> (False, True, True)


@njit
def is_text(x):
    return isinstance(x, str)


# check: is_text("a") -> True
# check: is_text(1.5) -> False


@njit
def contains(word, part):
    return part in word


# check: contains("numerical", "meric") -> True
# check: contains("numerical", "x") -> False


@njit
def count_vowels_in(word):
    # `in` over a tuple of strings, and a string compared in a loop over a tuple of them.
    n = 0
    for v in ("a", "e", "i", "o", "u"):
        if v in word:
            n += 1
    return n


# check: count_vowels_in("numerical") -> 4


@njit
def scaled(x, method):
    if method != "sqrt" and method != "square":
        raise ValueError("unknown method: " + method)
    if method == "sqrt":
        return np.sqrt(x)
    return x * x


# check: scaled(4.0, "sqrt") -> 2.0
# check: scaled(4.0, "square") -> 16.0
# check: scaled(4.0, "cube") raises ValueError: unknown method: cube


@njit
def checked_sqrt(x):
    message = "negative input"
    if x < 0:
        raise ValueError(message)
    return np.sqrt(x)


# check: checked_sqrt(9.0) -> 3.0
# check: checked_sqrt(-1.0) raises ValueError: negative input


@njit
def bounded(i, n, name):
    # An f-string message: the text and each field's str(), as Numba formats it.
    if i >= n:
        raise IndexError(f"{name} index {i} out of range for length {n}")
    print(f"{name}[{i}] of {n}")
    return i


# check: bounded(2, 3, "row") -> 2
# check: bounded(5, 3, "row") raises IndexError: row index 5 out of range for length 3


@njit
def normalise_kind(kind):
    # String methods of an argument: evaluated when the function is compiled for that string.
    k = kind.strip().lower()
    if k == "linear":
        return 1
    if k.startswith("cub"):
        return 3
    return 0


# check: normalise_kind(" Linear ") -> 1
# check: normalise_kind("CUBIC") -> 3
# check: normalise_kind("spline") -> 0


@njit
def text_facts(s):
    # Numba's isdigit() and isalpha() give 1 or 0, islower() a bool.
    return s.upper(), s.find("an"), s.rfind("a"), s.replace("a", "o"), s.endswith("na"), s.isdigit(), s.isalpha(), s.islower()


# check: text_facts("banana") -> ('BANANA', 1, 5, 'bonono', True, 0, 1, True)
# check: text_facts("2024") -> ('2024', -1, -1, '2024', False, 1, 0, False)


@njit
def banner(title, width=3):
    # Repetition by a constant, truth of a string, str() of a string.
    rule = "=" * 3
    if not title:
        return rule
    return rule + " " + str(title) + " " + rule


# check: banner("") -> '==='
# check: banner("run") -> '=== run ==='


@njit
def case_forms(s):
    # Case mappings of a string known when the function is compiled (ASCII text).
    return s.capitalize(), s.casefold(), s.swapcase(), s.title()


# check: case_forms("hello wORLD") -> ('Hello world', 'hello world', 'HELLO World', 'Hello World')
# check: case_forms("") -> ('', '', '', '')
# check: case_forms("x2y they're") -> ("X2y they're", "x2y they're", "X2Y THEY'RE", "X2Y They'Re")


@njit
def char_classes(s):
    # isascii() and isdecimal() give 1 or 0 in Numba, the others a bool.
    return s.isascii(), s.isdecimal(), s.isnumeric(), s.isprintable(), s.isidentifier(), s.istitle()


# check: char_classes("Hello World") -> (1, 0, False, True, False, True)
# check: char_classes("2024") -> (1, 1, True, True, False, False)
# check: char_classes("_name2") -> (1, 0, False, True, True, False)
# check: char_classes("") -> (1, 0, False, True, False, False)
# check: char_classes("tab\there") -> (1, 0, False, False, False, False)
# check: char_classes("A1 B") -> (1, 0, False, True, False, True)


@njit
def columns(s):
    return s.expandtabs(), len(s.expandtabs())


# check: columns("a\tbc\td") -> ('a       bc      d', 17)
# check: columns("ab\n\tc") -> ('ab\n        c', 12)
