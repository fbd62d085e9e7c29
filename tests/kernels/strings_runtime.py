"""Strings computed at run time: `str(n)`, indexing and slicing with run-time numbers, a
variable that holds different strings on different paths, string methods with integer
arguments, `join`, strings as dict keys and list elements. twinjit holds such a string as a
list of its code points."""

import numpy as np
from numba import njit


@njit
def format_count(n):
    return "count=" + str(n)


# check: format_count(42) -> 'count=42'
# check: format_count(-7) -> 'count=-7'
# check: format_count(0) -> 'count=0'


@njit
def extremes():
    # (Numba's str() of -2**63 raises MemoryError; twinjit writes its digits.)
    return str(-9223372036854775807), str(9223372036854775807), str(True), str(False)


# check: extremes() -> ('-9223372036854775807', '9223372036854775807', 'True', 'False')


@njit
def sign_word(x):
    word = "zero"
    if x > 0:
        word = "positive"
    elif x < 0:
        word = "negative"
    return word, len(word)


# check: sign_word(3.5) -> ('positive', 8)
# check: sign_word(-1.0) -> ('negative', 8)
# check: sign_word(0.0) -> ('zero', 4)


@njit
def nth_char(s, i):
    return s[i]


# check: nth_char("numba", 0) -> 'n'
# check: nth_char("numba", -1) -> 'a'
# check: nth_char("numba", 5) raises IndexError


@njit
def middle(s, k):
    return s[k:-k], s[::2], s[::-1]


# check: middle("abcdefg", 2) -> ('cde', 'aceg', 'gfedcba')
# check: middle("ab", 3) -> ('', 'a', 'ba')


@njit
def search(text, word, start):
    return (
        text.find(word, start),
        text.rfind(word),
        text.count(word),
        text.count(word, start, len(text) - 1),
        text.startswith(word, start),
        text.endswith(word),
    )


# check: search("the cat and the hat", "the", 1) -> (12, 12, 2, 1, False, False)
# check: search("abcabcabc", "abc", 3) -> (3, 6, 3, 1, True, True)
# check: search("abc", "", 5) -> (-1, 3, 4, 0, False, True)


@njit
def position(text, word):
    return text.index(word), text.rindex(word, 0, 6)


# check: position("banana", "an") -> (1, 3)
# check: position("banana", "x") raises ValueError


@njit
def table_row(name, value, width):
    return name.ljust(width, ".") + str(value).rjust(6) + "|" + name.center(width)


# check: table_row("alpha", 42, 9) -> 'alpha....    42|  alpha  '
# check: table_row("toolongname", -5, 4) -> 'toolongname    -5|toolongname'


@njit
def padded(n, width):
    return str(n).zfill(width)


# check: padded(42, 5) -> '00042'
# check: padded(-42, 5) -> '-0042'
# check: padded(123456, 3) -> '123456'


@njit
def csv_line(a):
    parts = []
    for i in range(a.shape[0]):
        parts.append(str(a[i]))
    return ",".join(parts)


# check: csv_line(np.array([3, 1, 4, 1, 5])) -> '3,1,4,1,5'
# check: csv_line(np.array([], dtype=np.int64)) -> ''


@njit
def word_lengths():
    d = {}
    for w in ["one", "three", "five", "three"]:
        if w in d:
            d[w] += 1
        else:
            d[w] = len(w)
    return d["one"], d["three"], d["five"], len(d), "two" in d


# check: word_lengths() -> (3, 6, 4, 3, False)


@njit
def grade(scores):
    names = {"A": 0, "B": 0, "C": 0}
    for s in scores:
        key = "C"
        if s >= 90:
            key = "A"
        elif s >= 75:
            key = "B"
        names[key] += 1
    return names["A"], names["B"], names["C"]


# check: grade(np.array([95, 80, 60, 91, 76, 10])) -> (2, 2, 2)


@njit
def compare_words(a, b):
    s = a + b
    return s == "foobar", s < "fop", s > "foo", s != a, "oba" in s, "x" in s


# check: compare_words("foo", "bar") -> (True, True, True, True, True, False)
# check: compare_words("fo", "o") -> (False, True, False, True, False, False)


@njit
def build_word(n):
    s = ""
    for i in range(n):
        s += "ab"[i % 2]
    return s, s * 2, len(s * 0), bool(s)


# check: build_word(5) -> ('ababa', 'ababaababa', 0, True)
# check: build_word(0) -> ('', '', 0, False)


@njit
def longest(words_count):
    words = ["pear", "fig", "banana", "kiwi"]
    best = words[0]
    for i in range(words_count):
        if len(words[i]) > len(best):
            best = words[i]
    return best, sorted(words)[0], sorted(words)[-1]


# check: longest(4) -> ('banana', 'banana', 'pear')
# check: longest(1) -> ('pear', 'banana', 'pear')


@njit
def describe(v):
    return "v=" + str(v) + " (" + ("even" if v % 2 == 0 else "odd") + ")"


# check: describe(7) -> 'v=7 (odd)'
# check: describe(np.int32(-4)) -> 'v=-4 (even)'


@njit
def parsed_constants(x):
    lo = float("-inf")
    hi = float("1_000.5")
    nan = float(" nan ")
    return max(lo, min(x, hi)), nan != nan


# check: parsed_constants(2000.0) -> (1000.5, True)
# check: parsed_constants(-3.0) -> (-3.0, True)


@njit
def mixed_equality(s, n):
    return s == n, s != n, str(n) == s


# check: mixed_equality("7", 7) -> (False, True, True)


@njit
def is_image(name):
    return name.endswith((".png", ".jpg")), name.startswith(("img", "pic"), 1)


# check: is_image("_img.jpg") -> (True, True)
# check: is_image("notes.txt") -> (False, False)


@njit
def spaced(word, sep):
    return sep.join(word), "".join(word[::-1])


# check: spaced("abc", "-") -> ('a-b-c', 'cba')
# check: spaced("", "--") -> ('', '')
# check: spaced("x", ", ") -> ('x', 'x')


@njit
def vowels(text):
    n = 0
    out = ""
    for c in text:
        if c in "aeiou":
            n += 1
        else:
            out += c
    return n, out


# check: vowels("numba jit") -> (3, 'nmb jt')
# check: vowels("") -> (0, '')


@njit
def progress(done, total):
    pct = done * 100 // total
    label = f"{done}/{total} ({pct}%)"
    return label, f"{'ok' if done == total else 'running'}: {label}"


# check: progress(3, 4) -> ('3/4 (75%)', 'running: 3/4 (75%)')
# check: progress(8, 8) -> ('8/8 (100%)', 'ok: 8/8 (100%)')


@njit
def parse_record(line):
    fields = line.strip().split(",")
    total = 0
    names = []
    for f in fields:
        key_value = f.split("=")
        names.append(key_value[0].strip())
        total += len(key_value[1])
    # (Numba 0.68's `line.split(None, 1)` returns only the first piece; Python and twinjit
    # return the rest as a second one.)
    return names, total, len(line.split()), line.split(" ", 2)


# check: parse_record("  a = 1, bb=22 ,c=333\n") -> (['a', 'bb', 'c'], 8, 5, ['', '', 'a = 1, bb=22 ,c=333\n'])
# check: parse_record("x=") -> (['x'], 0, 1, ['x='])


@njit
def tidy(s):
    return s.strip("xy"), s.lstrip(), s.rstrip("y"), s.replace("x", "-"), s.replace("", "|", 3), s.isspace()


# check: tidy("xy abc yx") -> (' abc ', 'xy abc yx', 'xy abc yx', '-y abc y-', '|x|y| abc yx', False)
# check: tidy(" \t\u3000") -> (' \t\u3000', '', ' \t\u3000', ' \t\u3000', '| |\t|\u3000', True)


@njit
def limited(s):
    return s.split("-", 1), s.replace("-", "+", 2), "".split(","), "a--b".split("-")


# check: limited("1-2-3-4") -> (['1', '2-3-4'], '1+2+3-4', [''], ['a', '', 'b'])
