#!/usr/bin/env python3
"""CPython as the oracle for twinjit's constant evaluator (`src/const_eval.rs`).

    python3 const_eval_cases.py           # (re)writes const_eval_cases.txt next to this file
    python3 const_eval_cases.py --check   # re-evaluates every case; fails on any difference

Each line of the table is `EXPRESSION<TAB>RESULT`, RESULT one of `int:N`, `float:REPR`,
`bool:True`, `complex:REPR;REPR` (the parts), `tuple:(R, R, ...)`, `raises:ExceptionName: message`, `notconst`, `toolarge`.
The Rust test `const_eval::tests::agrees_with_cpython` evaluates every EXPRESSION and compares
(floats bit for bit, nan with nan).

Every node is evaluated by CPython's own operator (`operator.add`, `int`, ...) on the values
CPython computed for its children, and the few leaves are `math.inf`, `math.nan` and literals.
The walker adds only twinjit's documented limits, never semantics of its own:
- an int outside i128 at any step is `toolarge` (twinjit's ints are i128), and so is a tuple
  longer than MAX_TUPLE; where computing such a value would take CPython too long, the walker
  says `toolarge` before computing it (a power or shift whose result cannot fit);
- syntax the evaluator does not read (`is`, `in`) is `notconst`.
Where the walker produces a value or an exception, it also checks that CPython's own `eval`
of the whole expression gives the same, so the walker is checked against CPython too.
"""

import ast
import math
import operator
import pathlib
import sys

TABLE = pathlib.Path(__file__).with_name("const_eval_cases.txt")
I128_MIN, I128_MAX = -(1 << 127), (1 << 127) - 1
MAX_TUPLE = 1024
NAMES = {"inf": math.inf, "nan": math.nan}
CALLS = {"int": int, "float": float, "bool": bool, "complex": complex}

BINARY = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
    ast.MatMult: operator.matmul,
}
UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert,
         ast.Not: operator.not_}
COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
           ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne}


class TooLarge(Exception):
    pass


class NotConst(Exception):
    pass


def checked(v):
    if type(v) is int and not I128_MIN <= v <= I128_MAX:
        raise TooLarge
    if isinstance(v, tuple) and len(v) > MAX_TUPLE:
        raise TooLarge
    return v


def is_int(v):
    return type(v) in (int, bool)


def binary(op, a, b):
    # Results that cannot fit, decided before CPython spends minutes on them.
    if op is ast.Pow and is_int(a) and is_int(b) and abs(a) >= 2 and b >= 128:
        raise TooLarge
    if op is ast.LShift and is_int(a) and is_int(b) and a != 0 and b >= 128:
        raise TooLarge
    if op is ast.Mult:
        for t, n in ((a, b), (b, a)):
            if (isinstance(t, tuple) and is_int(n) and t and 0 < n <= sys.maxsize
                    and len(t) * n > MAX_TUPLE):
                raise TooLarge
    return BINARY[op](a, b)


def ev(node):
    if isinstance(node, ast.Expression):
        return ev(node.body)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, bool, complex):
        return checked(node.value)
    if isinstance(node, ast.Name) and node.id in NAMES:
        return NAMES[node.id]
    if isinstance(node, ast.UnaryOp):
        return checked(UNARY[type(node.op)](ev(node.operand)))
    if isinstance(node, ast.BinOp):
        a = ev(node.left)
        b = ev(node.right)
        return checked(binary(type(node.op), a, b))
    if isinstance(node, ast.Tuple):
        return checked(tuple(ev(e) for e in node.elts))
    if isinstance(node, ast.BoolOp):
        v = ev(node.values[0])
        for e in node.values[1:]:
            if bool(v) != isinstance(node.op, ast.And):
                return v
            v = ev(e)
        return v
    if isinstance(node, ast.IfExp):
        return ev(node.body) if ev(node.test) else ev(node.orelse)
    if isinstance(node, ast.Compare):
        left = ev(node.left)
        for op, e in zip(node.ops, node.comparators):
            if type(op) not in COMPARE:
                raise NotConst
            right = ev(e)
            if not COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CALLS
            and (len(node.args) == 1 or (len(node.args) == 2 and node.func.id == "complex"))
            and not node.keywords):
        return checked(CALLS[node.func.id](*[ev(a) for a in node.args]))
    raise NotConst


def render(v):
    if type(v) is bool:
        return f"bool:{v}"
    if type(v) is int:
        return f"int:{v}"
    if type(v) is float:
        return f"float:{v!r}"
    if type(v) is complex:
        return f"complex:{v.real!r};{v.imag!r}"
    if type(v) is tuple:
        return "tuple:(" + ", ".join(render(x) for x in v) + ")"
    raise AssertionError(f"unexpected value {v!r}")


def result(expr):
    try:
        got = render(ev(ast.parse(expr, mode="eval")))
    except TooLarge:
        return "toolarge"
    except NotConst:
        return "notconst"
    except (ZeroDivisionError, OverflowError, ValueError, TypeError) as e:
        got = f"raises:{type(e).__name__}: {e}"
    # CPython's own evaluation of the whole expression must agree with the walker.
    try:
        direct = render(eval(expr, {"__builtins__": {}}, dict(NAMES, **CALLS)))
    except (ZeroDivisionError, OverflowError, ValueError, TypeError) as e:
        direct = f"raises:{type(e).__name__}: {e}"
    if direct != got:
        raise AssertionError(f"{expr}: walker says {got}, eval says {direct}")
    return got


def operand(s):
    return f"({s})" if s.startswith("-") else s


# Every binary operator over every pair of these (int, bool and float edge values).
VALUES = ["0", "1", "-7", "3", "9223372036854775807", "-9223372036854775808", "True", "0.0", "-0.0",
          "-7.5", "inf", "nan"]
BINARY_OPS = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^"]
# Every comparison over every pair of these: exactness of int against float, signed zeros, nan.
CMP_VALUES = ["0", "-1", "True", "-0.0", "0.5", "inf", "nan", "9007199254740993", "9007199254740992.0"]
CMP_OPS = ["<", "<=", ">", ">=", "==", "!="]
UNARY_VALUES = VALUES + ["False", "2.5", "170141183460469231731687303715884105727",
                         "(1, 2)", "()"]
UNARY_OPS = ["-", "+", "~", "not "]
# Complex operands with each other and with reals, under the operators complex has or refuses.
COMPLEX_VALUES = ["0j", "1j", "(-0.0-1.5j)", "(2.5-1j)", "(-3+4j)", "(1e300+1e300j)", "(nan+1j)", "(inf+0j)"]
COMPLEX_PARTNERS = COMPLEX_VALUES + ["0", "3", "-2", "True", "-0.0", "2.5", "inf", "nan", "(1, 2)"]
COMPLEX_OPS = ["+", "-", "*", "/", "**", "//", "%", "&", "==", "!=", "<"]

HANDPICKED = """
2 ** -1
(-2) ** -1
0 ** -1
0.0 ** -1
0 ** -1.5
-0.0 ** -1
(-0.0) ** -1
(-0.0) ** 3
(-0.0) ** 2
(-0.0) ** 0.5
0 ** 0
0.0 ** 0
nan ** 0
nan ** 0.0
1 ** nan
1.0 ** inf
(-1.0) ** inf
(-1) ** nan
0.5 ** inf
0.5 ** -inf
2 ** inf
2 ** -inf
inf ** -1
(-inf) ** 3
(-inf) ** -3
(-inf) ** 2
(-inf) ** 0.5
(-8.0) ** 0.5
(-8) ** 0.5
(-8) ** (1 / 3)
(-8.0) ** 3.0
(-8.0) ** -3.0
(-1.0) ** 1e300
(-1) ** 9223372036854775807
(-1) ** 9223372036854775808
1 ** 9223372036854775808
0 ** 9223372036854775808
2 ** 126
2 ** 127
(-2) ** 127
(-2) ** 128
2 ** 128
10 ** 38
10 ** 39
10 ** 400
10 ** -400
2.0 ** 10000
2.0 ** 1023
2.0 ** 1024
(-2.0) ** 1025
2.0 ** -1074
2.0 ** -1075
1.5 ** -1800
1e300 ** 2
1e308 * 10
-1e308 * 10
1e308 + 1e308
2 ** 0.5
2 ** 62 * 4
2 ** 62 * 2
2 ** 63 - 1
-2 ** 63
-(2 ** 63)
(-2) ** 63
1 << 63
(1 << 63) - 1
1 << 64
1 << 126
1 << 127
(-1) << 127
1 << 128
0 << 1000
0 << 9223372036854775808
1 << 9223372036854775808
1 << -1
1 >> -1
0 >> -1
-1 >> 1000
-7 >> 1
7 >> 200
-9223372036854775808 >> 63
1.5 << 1
1 << 1.0
-9223372036854775808
--9223372036854775808
-(-9223372036854775808)
9223372036854775808
-9223372036854775809
18446744073709551615
18446744073709551616
170141183460469231731687303715884105727
170141183460469231731687303715884105728
-170141183460469231731687303715884105728
-170141183460469231731687303715884105727 - 1
-170141183460469231731687303715884105727 - 2
170141183460469231731687303715884105727 + 1
-(-170141183460469231731687303715884105727 - 1)
(-170141183460469231731687303715884105727 - 1) // -1
(-170141183460469231731687303715884105727 - 1) % -1
(-170141183460469231731687303715884105727 - 1) * -1
99999999999999999999999999999999999999999999
0x7fffffffffffffff
0xffffffffffffffffffff
0o777
0b1011
1_000_000
1_000_000_000_000_000_000_000_000
1e309
-1e309
1e-400
0.1 + 0.2
1 / 0
1 % 0
1 // 0
1.0 / 0
1.0 // 0.0
1.0 % 0.0
1 / 0.0
1 // -0.0
1 % -0.0
True / False
True // False
0 / 0
0 / -1
0.0 / -1
-7.5 // 2
-7.5 % 2
7.5 // -2
7.5 % -2
-7 // 2
-7 % 2
7 // -2
7 % -2
-7.0 % inf
7.0 % -inf
-7.0 // inf
inf // 1
inf % 1
1e300 // 1e-300
-0.0 // 1
0.0 // -1
-0.0 % 1
0.0 % -1
5 % -0.5
1 / 3
2 / 3
-1 / 3
(2 ** 53 + 1) / 1
(2 ** 53 + 1) / 3
(2 ** 60 + 1) / 3
2047602708235206189870706623582305 / 25195241
32384102274864057937474244004923305 / -109856139235102327
988689132541135467959489 / 4227854204788568389842596503163283
(2 ** 100 + 1) / (2 ** 47 + 1)
(2 ** 120) / 3
1 / (2 ** 120 + 1)
-1 / (2 ** 126)
(2 ** 126 + 1) / (2 ** 126)
170141183460469231731687303715884105727 / 3
170141183460469231731687303715884105727 / -170141183460469231731687303715884105727
9007199254740993 + 0.0
9007199254740995 * 1.0
170141183460469231731687303715884105727 + 0.0
2 ** 53 + 1 == 2.0 ** 53
2 ** 53 + 1 > 2.0 ** 53
9223372036854775807 == 9223372036854775808.0
9223372036854775807 < 9223372036854775808.0
2 ** 63 == 9223372036854775808.0
170141183460469231731687303715884105727 < 1.7014118346046923e38
170141183460469231731687303715884105727 < 1e300
-170141183460469231731687303715884105727 - 1 == -1.7014118346046923e38
1 < inf
-1 > -inf
3 < 3.5
-3 < -3.5
-3 > -3.5
True == 1
True == 1.0
1 == 1.0
True + True
True - True
True * -3
True / 2
True // 2
True % 2
True ** -1
-True
~True
~False
+True
not True
not 0.0
not -0.0
not nan
not ()
not (0,)
True & False
True | False
True ^ True
True & 3
True << 1
True >> 1
False << 100
1 < 2 < 3
1 < 3 < 2
3 > 2 > 1 > 0
1 < 2 > 0
1 == 1.0 == True
0 < 0 < 1 / 0
0 < 1 < 1 / 0
0 and 1 / 0
1 and 0.0
1 and 2.5
0 or 2.5
0.0 or 0
nan or 0
0 or False or ()
1 or 1 / 0
1 and 2 and 3
1 and 0 and 1 / 0
3 if 1 else 1 / 0
1 / 0 if 0 else 4
2.5 if () else -1
(1, 2) if (0,) else 3
int(2.9)
int(-2.9)
int(-0.5)
int(True)
int(1e18)
int(1e300)
int(nan)
int(inf)
int(-inf)
int(9223372036854775807.0)
int((1,))
float(9007199254740993)
float(True)
float(170141183460469231731687303715884105727)
float((1,))
bool(0.0)
bool(nan)
bool(())
bool((0,))
bool(-7)
(1, 2)
()
(1,)
(1, 2.5, True)
(1, (2, 3))
(1, 1 / 0)
(1, 2 ** 200)
(1, 2) + (3,)
() + ()
(1,) + 1
1 + (1,)
(1, 2) * 2
2 * (1, 2)
(1,) * True
(1,) * 0
(1,) * -3
(1,) * 2.5
2.5 * (1,)
(1,) * (2,)
(1, 2) * 3
(1,) * 1025
() * 99999999999999999999
(1,) * 9223372036854775808
(1,) * 9223372036854775807
(1,) * -9223372036854775809
(1,) - (1,)
(1,) ** 2
2 ** (1,)
-(1,)
~(1,)
(1, 2) == (1, 2)
(1, 2) != (1, 2)
(1, 2) < (1, 3)
(1, 2) < (1, 2, 0)
(1, 2) <= (1,)
(2,) > (1, 9)
() < (0,)
(1, 2) == (1.0, 2.0)
(1,) == 1
(1,) != 1
(1,) < 1
1 >= (1,)
(1, (2,)) < (1, 2)
(0.5, 1) < (0.5, 2)
1 is 1
1 in (1,)
1 @ 2
1.5 @ 2.5
1.5 & 1
~1.5
~inf
1.5 ^ 2
1j
2.5e-3j
complex(1, 2)
complex(1j, 1j)
complex(2.5)
complex(True, -0.0)
complex(1j)
complex((1,))
complex(1, (1,))
int(1j)
float(1j)
bool(0j)
bool(-0.0j)
bool(1e-300j)
-(0j)
~1j
not 1j
(-8.0) ** 0.5
(-8) ** 0.5
(-8) ** (1 / 3)
(-2.0) ** 1.5
(-1e300) ** 0.5
(1e-200 + 0j) ** -2
(1e200 + 1j) ** 2
0j ** 0
0j ** 0j
0j ** 1j
0j ** -0.5
0j ** 2.5
0j ** -1
2 ** 1j
(1 + 1j) ** 0.5
(1 + 1j) ** (1 + 1j)
(1 + 1j) ** 100
(1 + 1j) ** 101
(1 + 1j) ** -100
1j ** 1e300
(1 + 2j) / (3 - 4j)
(1 + 2j) / (4 - 3j)
1j / 0j
1 / (0.0 + 0j)
1j / nan
(1, 1j) == (1, 1j)
(1, 1j) == (1, 1)
(1j,) * 2
2j * (1,)
1j < 1j
(1, 1j) < (1, 2j)
(1j, 1) < (1j, 2)
1j == 1
(1 + 0j) == 1
(1 + 0j) == True
(9007199254740993 + 0j) == 9007199254740993
1j + 170141183460469231731687303715884105727
"""


def cases():
    out = [f"{operand(a)} {op} {operand(b)}" for op in BINARY_OPS for a in VALUES for b in VALUES]
    out += [f"{operand(a)} {op} {operand(b)}" for op in CMP_OPS for a in CMP_VALUES for b in CMP_VALUES]
    out += [f"{op}{operand(v) if op != 'not ' else v}" for op in UNARY_OPS for v in UNARY_VALUES]
    out += [f"{operand(a)} {op} {operand(b)}" for op in COMPLEX_OPS for a in COMPLEX_VALUES for b in COMPLEX_PARTNERS]
    out += [f"{operand(a)} {op} {operand(b)}" for op in COMPLEX_OPS for a in COMPLEX_PARTNERS[len(COMPLEX_VALUES):]
            for b in COMPLEX_VALUES]
    out += [f"{op}{operand(v) if op != 'not ' else v}" for op in UNARY_OPS for v in COMPLEX_VALUES]
    out += [line for line in HANDPICKED.strip().splitlines() if line]
    seen = set()
    return [c for c in out if not (c in seen or seen.add(c))]


def table():
    head = (f"# CPython {sys.version.split()[0]}'s results for twinjit's constant evaluator; "
            "written by const_eval_cases.py (do not edit).\n"
            "# EXPRESSION<TAB>RESULT; see the script for the format.\n")
    return head + "".join(f"{c}\t{result(c)}\n" for c in cases())


def main():
    text = table()
    if sys.argv[1:] == ["--check"]:
        old = TABLE.read_text()
        # The header names the CPython version; compare the cases.
        strip = lambda t: [l for l in t.splitlines() if not l.startswith("#")]
        new_lines, old_lines = strip(text), strip(old)
        diff = [f"- {o}\n+ {n}" for o, n in zip(old_lines, new_lines) if o != n]
        if len(old_lines) != len(new_lines):
            diff.append(f"{len(old_lines)} cases in the table, {len(new_lines)} in the script")
        if diff:
            print("\n".join(diff[:50]), file=sys.stderr)
            print(f"{TABLE.name} disagrees with CPython {sys.version.split()[0]}: "
                  f"{len(diff)} differences; rewrite it with `python3 {pathlib.Path(__file__).name}`",
                  file=sys.stderr)
            sys.exit(1)
        print(f"{TABLE.name}: {len(new_lines)} cases agree with CPython {sys.version.split()[0]}")
    elif not sys.argv[1:]:
        TABLE.write_text(text)
        print(f"wrote {TABLE.name}: {text.count(chr(10)) - 2} cases")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
