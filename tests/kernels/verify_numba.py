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
The plain mode must be run
afterwards; generated values still need a human look.
"""

import ast
import glob
import importlib.util
import math
import os
import re
import sys
import tempfile

# Keep `@njit(cache=True)` from writing index files next to the sources.
os.environ.setdefault("NUMBA_CACHE_DIR", tempfile.mkdtemp(prefix="twinjit-numba-cache-"))
sys.dont_write_bytecode = True

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK_RE = re.compile(r"^\s*#\s*check:\s*(.*?)\s*$")
RAISES_RE = re.compile(r"^(.*\))\s+raises\s+([A-Za-z_][A-Za-z0-9_]*)(?::\s(.*))?$")
# Builtin errors whose messages twinjit words its own way: --generate writes only the class.
OWN_MESSAGES = ("ZeroDivisionError", "IndexError")
ARG_RE = re.compile(r"^arg(\d+)\s*==\s*(.*)$")
REL_TOL = 1e-12


class CheckError(Exception):
    pass


def load_module(path):
    name = "twinjit_kernel_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def parse_check(text):
    """Return (call, kind, expected_src, [(argno, list_src)])."""
    parts = [p.strip() for p in text.split(";")]
    head, rest = parts[0], parts[1:]
    arg_checks = []
    for p in rest:
        m = ARG_RE.match(p)
        if not m:
            raise CheckError("bad array clause %r" % p)
        arg_checks.append((int(m.group(1)), m.group(2).strip()))
    m = RAISES_RE.match(head)
    if m:
        expected = m.group(2) if m.group(3) is None else (m.group(2), m.group(3))
        return m.group(1).strip(), "raises", expected, arg_checks
    if " -> " not in head:
        raise CheckError("missing ' -> ' or 'raises' in %r" % head)
    call, expected = head.rsplit(" -> ", 1)
    return call.strip(), "value", expected.strip(), arg_checks


def eval_env(mod):
    return {"np": np, "math": math, "__builtins__": __builtins__}


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
    env = eval_env(mod)
    args = [eval(ast.unparse(a), env) for a in node.args]
    return getattr(mod, fname), args


def is_bool(x):
    return isinstance(x, (bool, np.bool_))


def is_int(x):
    return isinstance(x, (int, np.integer)) and not is_bool(x)


def is_float(x):
    return isinstance(x, (float, np.floating))


def same(expected, got, path="result"):
    """Return None when equal, else a message."""
    if isinstance(got, np.ndarray) and isinstance(expected, list):
        got = got.tolist()
    if isinstance(expected, tuple):
        if not isinstance(got, tuple) or len(got) != len(expected):
            return "%s: expected tuple %r, got %r" % (path, expected, got)
        for i, (e, g) in enumerate(zip(expected, got)):
            msg = same(e, g, "%s[%d]" % (path, i))
            if msg:
                return msg
        return None
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return "%s: expected list %r, got %r" % (path, expected, got)
        for i, (e, g) in enumerate(zip(expected, got)):
            msg = same(e, g, "%s[%d]" % (path, i))
            if msg:
                return msg
        return None
    if expected is None:
        return None if got is None else "%s: expected None, got %r" % (path, got)
    if is_bool(expected):
        if not is_bool(got) or bool(got) != bool(expected):
            return "%s: expected %r, got %r (%s)" % (path, expected, got, type(got).__name__)
        return None
    if is_int(expected):
        if not is_int(got) or int(got) != int(expected):
            return "%s: expected %r, got %r (%s)" % (path, expected, got, type(got).__name__)
        return None
    if is_float(expected):
        if not is_float(got):
            return "%s: expected float %r, got %r (%s)" % (path, expected, got, type(got).__name__)
        e, g = float(expected), float(got)
        if math.isnan(e) and math.isnan(g):
            return None
        if e == g:
            return None
        if math.isfinite(e) and math.isfinite(g) and abs(e - g) <= REL_TOL * max(abs(e), abs(g)):
            return None
        return "%s: expected %r, got %r" % (path, e, g)
    return "%s: unsupported expected value %r" % (path, expected)


def fmt(x):
    """Python-literal text for a value produced by Numba."""
    if isinstance(x, tuple):
        inner = ", ".join(fmt(v) for v in x)
        return "(%s,)" % inner if len(x) == 1 else "(%s)" % inner
    if isinstance(x, np.ndarray):
        return fmt(x.tolist())
    if isinstance(x, list):
        return "[%s]" % ", ".join(fmt(v) for v in x)
    if x is None:
        return "None"
    if is_bool(x):
        return repr(bool(x))
    if is_int(x):
        return repr(int(x))
    if is_float(x):
        f = float(x)
        if math.isnan(f):
            return "math.nan"
        if math.isinf(f):
            return "math.inf" if f > 0 else "-math.inf"
        return repr(f)
    raise CheckError("cannot format %r (%s)" % (x, type(x).__name__))


def run_check(mod, text):
    """Run one check; return list of failure messages."""
    call_src, kind, expected_src, arg_checks = parse_check(text)
    func, args = prepare_call(mod, call_src)
    env = eval_env(mod)
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
            msg = same(eval(expected_src, env), got)
            if msg:
                fails.append(msg)
    if raised is None or kind == "raises":
        for argno, list_src in arg_checks:
            if argno >= len(args) or not hasattr(args[argno], "tolist"):
                fails.append("arg%d is not an array" % argno)
                continue
            msg = same(eval(list_src, env), args[argno].tolist(), "arg%d" % argno)
            if msg:
                fails.append(msg)
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
    clauses = [head]
    for argno, src in arg_checks:
        if src == "?":
            src = fmt(args[argno].tolist())
        clauses.append("arg%d == %s" % (argno, src))
    return " ; ".join(clauses)


def kernel_files(argv):
    if argv:
        return [os.path.abspath(p) for p in argv]
    files = sorted(glob.glob(os.path.join(HERE, "*.py")))
    return [f for f in files if os.path.basename(f) != os.path.basename(__file__)]


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
    argv = sys.argv[1:]
    generate = False
    if argv and argv[0] == "--generate":
        generate = True
        argv = argv[1:]
    passed = failed = 0
    for path in kernel_files(argv):
        rel = os.path.relpath(path)
        with open(path) as fh:
            lines = fh.read().split("\n")
        try:
            mod = load_module(path)
        except Exception as exc:  # noqa: BLE001
            print("FAIL %s: import error %s: %s" % (rel, type(exc).__name__, exc))
            failed += 1
            continue
        if generate:
            changed = False
            for i, line in enumerate(lines):
                m = CHECK_RE.match(line)
                if not m:
                    continue
                indent = line[: len(line) - len(line.lstrip())]
                try:
                    new = generate_line(mod, m.group(1))
                except Exception as exc:  # noqa: BLE001
                    print("GEN-ERROR %s:%d: %s: %s" % (rel, i + 1, type(exc).__name__, exc))
                    continue
                if new != m.group(1):
                    lines[i] = "%s# check: %s" % (indent, new)
                    changed = True
            if changed:
                with open(path, "w") as fh:
                    fh.write("\n".join(lines))
                print("generated %s" % rel)
            continue
        for name in unchecked_functions(mod, "\n".join(lines)):
            print("note %s: function %s has no check line" % (rel, name))
        for i, line in enumerate(lines):
            m = CHECK_RE.match(line)
            if not m:
                continue
            try:
                fails = run_check(mod, m.group(1))
            except Exception as exc:  # noqa: BLE001
                fails = ["bad check: %s: %s" % (type(exc).__name__, exc)]
            if fails:
                failed += 1
                print("FAIL %s:%d: %s\n    %s" % (rel, i + 1, m.group(1), "\n    ".join(fails)))
            else:
                passed += 1
    if generate:
        return 0
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
