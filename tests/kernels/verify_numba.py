#!/usr/bin/env python3
"""Check the `# check:` lines of tests/kernels/*.py against real Numba.

Usage:
    python tests/kernels/verify_numba.py              # check every file
    python tests/kernels/verify_numba.py FILE.py ...  # check only these files
    python tests/kernels/verify_numba.py --generate [FILE.py ...]

Check line grammar (one per line, anywhere in the file):

    # check: CALL -> EXPECTED
    # check: CALL raises ExceptionName
    # check: CALL raises ExceptionName: message
    # check: CALL -> EXPECTED ; arg0 == [..] ; arg2 == [..]

CALL is `func(arg, ...)` where each argument is a Python expression evaluated
with `np` and `math` in scope.  EXPECTED is a Python literal (also `math.nan`,
`math.inf`, `-math.inf`).  `argN == LIST` compares `argN.tolist()` after the
call.  A returned NumPy array (also one inside a returned tuple) is written as
its `.tolist()`, a nested list (`-> [[1.0, 2.0], [3.0, 4.0]]`), and compared
as that list; a returned Python list compares as a list.

Comparison rules: ints and bools exact (and the result must be of the same
kind: a bool where a bool is expected, an integer where an int is expected, a
float where a float is expected); floats equal, or both nan, or relative error
<= 1e-12; tuples and lists elementwise; `raises X` needs exactly type X;
`raises X: message` also needs `str(exc) == message` (the rest of the clause,
so a message cannot hold ` ; `).

--generate rewrites every `?` placeholder (`-> ?` or `argN == ?`) in the given
files with the value Numba produces, using repr() of Python floats.  A call
that raises turns `-> ?` into `raises X`, or `raises X: message` when the
message is not empty (except for ZeroDivisionError and IndexError, whose
messages twinjit words its own way); an error from Numba itself (a TypingError:
Numba does not compile the function) leaves the `?` and reports GEN-ERROR.
The plain mode must be run afterwards; generated values still need a human
look.
"""

import ast
import os
import re
import sys
import tempfile

# Keep `@njit(cache=True)` from writing index files next to the sources.
os.environ.setdefault("NUMBA_CACHE_DIR", tempfile.mkdtemp(prefix="twinjit-numba-cache-"))
sys.dont_write_bytecode = True

from verify_common import (  # noqa: E402
    CheckError,
    check_args,
    eval_env,
    fmt,
    run_files,
    same,
    split_check,
    split_value,
    with_args,
)

HERE = os.path.dirname(os.path.abspath(__file__))
RAISES_RE = re.compile(r"^(.*\))\s+raises\s+([A-Za-z_][A-Za-z0-9_]*)(?::\s(.*))?$")
# Builtin errors whose messages twinjit words its own way: --generate writes only the class.
OWN_MESSAGES = ("ZeroDivisionError", "IndexError")


def parse_check(text):
    """Return (call, kind, expected_src, [(argno, list_src)])."""
    head, arg_checks = split_check(text)
    m = RAISES_RE.match(head)
    if m:
        expected = m.group(2) if m.group(3) is None else (m.group(2), m.group(3))
        return m.group(1).strip(), "raises", expected, arg_checks
    call, expected = split_value(head, "' -> ' or 'raises'")
    return call, "value", expected, arg_checks


def prepare_call(mod, call_src):
    tree = ast.parse(call_src, mode="eval")
    node = tree.body
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        raise CheckError("CALL must be name(args...): %r" % call_src)
    if node.keywords:
        raise CheckError("CALL must not use keyword arguments: %r" % call_src)
    fname = node.func.id
    if not hasattr(mod, fname):
        raise CheckError("no function %r in module" % fname)
    env = eval_env()
    args = [eval(ast.unparse(a), env) for a in node.args]
    return getattr(mod, fname), args


def run_check(mod, text):
    """Run one check; return list of failure messages."""
    call_src, kind, expected_src, arg_checks = parse_check(text)
    func, args = prepare_call(mod, call_src)
    fails = []
    try:
        got = func(*args)
        raised = None
    except Exception as exc:  # noqa: BLE001
        raised = exc
    if kind == "raises":
        cls, message = expected_src if isinstance(expected_src, tuple) else (expected_src, None)
        if raised is None:
            fails.append("expected %s, returned %r" % (cls, got))
        elif type(raised).__name__ != cls:
            fails.append("expected %s, raised %s: %s" % (cls, type(raised).__name__, raised))
        elif message is not None and str(raised) != message:
            fails.append("expected %s: %s, raised %s: %s" % (cls, message, cls, raised))
    else:
        if raised is not None:
            fails.append("raised %s: %s" % (type(raised).__name__, raised))
        else:
            msg = same(eval(expected_src, eval_env()), got)
            if msg:
                fails.append(msg)
    if raised is None or kind == "raises":
        fails += check_args(args, arg_checks)
    return fails


def generate_line(mod, text):
    """Return the check text with `?` placeholders filled in."""
    call_src, kind, expected_src, arg_checks = parse_check(text)
    if expected_src != "?" and all(src != "?" for _, src in arg_checks):
        return text
    func, args = prepare_call(mod, call_src)
    try:
        got = func(*args)
        head = "%s -> %s" % (call_src, fmt(got))
    except Exception as exc:  # noqa: BLE001
        if type(exc).__module__.startswith("numba"):
            # TypingError and friends: Numba rejects the function, not a value to record.
            raise CheckError("Numba rejects it: %s" % str(exc).split("\n")[0]) from None
        head = "%s raises %s" % (call_src, type(exc).__name__)
        if str(exc) and type(exc).__name__ not in OWN_MESSAGES:
            head += ": %s" % exc
    if kind == "raises" or expected_src != "?":
        head = text.split(";")[0].strip()
    return with_args(head, args, arg_checks)


def unchecked_functions(mod, src):
    """Names of njit functions defined in the module with no check line."""
    try:
        from numba.core.registry import CPUDispatcher
    except ImportError:  # pragma: no cover
        return []
    called = set(re.findall(r"#\s*check:\s*([A-Za-z_][A-Za-z0-9_]*)\(", src))
    names = []
    for name, obj in vars(mod).items():
        if isinstance(obj, CPUDispatcher) and obj.__module__ == mod.__name__ and name not in called:
            names.append(name)
    return names


def main():
    counts = run_files(HERE, sys.argv[1:], "twinjit_kernel_", "function", run_check, generate_line, unchecked_functions)
    if counts is None:
        return 0
    print("%d passed, %d failed" % counts)
    return 1 if counts[1] else 0


if __name__ == "__main__":
    sys.exit(main())
