"""What the two checkers of the corpus share: tests/kernels/verify_numba.py (host functions
under Numba) and tests/kernels_cuda/verify_numba_cudasim.py (kernels under Numba's CUDA
simulator). Both read the same `# check:` lines (see their docstrings), compare values by the
same rules, fill `?` placeholders the same way (--generate) and walk the corpus files the same
way; each says only how to run one check.

Its name starts with `verify`, so neither the scripts nor the Rust corpus loaders
(tests/common/mod.rs `corpus_in`) take it for a corpus file.
"""

import glob
import importlib.util
import math
import os
import re
import sys

import numpy as np

CHECK_RE = re.compile(r"^\s*#\s*check:\s*(.*?)\s*$")
ARG_RE = re.compile(r"^arg(\d+)\s*==\s*(.*)$")
REL_TOL = 1e-12


class CheckError(Exception):
    pass


def load_module(path, prefix):
    """Imports the corpus file at `path` as module `prefix` + its stem."""
    name = prefix + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def split_check(text):
    """Return (head, [(argno, list_src)]): the clause before the first ` ; ` and the array
    clauses after it."""
    parts = [p.strip() for p in text.split(";")]
    arg_checks = []
    for p in parts[1:]:
        m = ARG_RE.match(p)
        if not m:
            raise CheckError("bad array clause %r" % p)
        arg_checks.append((int(m.group(1)), m.group(2).strip()))
    return parts[0], arg_checks


def split_value(head, what="' -> '"):
    """Return (call, expected) of `CALL -> EXPECTED`."""
    if " -> " not in head:
        raise CheckError("missing %s in %r" % (what, head))
    call, expected = head.rsplit(" -> ", 1)
    return call.strip(), expected.strip()


def eval_env():
    return {"np": np, "math": math, "__builtins__": __builtins__}


def is_bool(x):
    return isinstance(x, (bool, np.bool_))


def is_int(x):
    return isinstance(x, (int, np.integer)) and not is_bool(x)


def is_float(x):
    return isinstance(x, (float, np.floating))


def is_complex(x):
    return isinstance(x, (complex, np.complexfloating))


def same(expected, got, path="result", loose=None):
    """Return None when equal, else a message.

    Ints and bools exact and of the same kind; floats equal, both nan, or within REL_TOL
    relative; tuples and lists elementwise. `loose(path, e, g)`, when given, may still accept
    two finite floats that differ by more (it reports them itself). A NumPy array compares as
    its `.tolist()` against an expected list."""
    if isinstance(got, np.ndarray) and isinstance(expected, list):
        got = got.tolist()
    for kind in (tuple, list):
        if isinstance(expected, kind):
            if not isinstance(got, kind) or len(got) != len(expected):
                return "%s: expected %s %r, got %r" % (path, kind.__name__, expected, got)
            for i, (e, g) in enumerate(zip(expected, got)):
                msg = same(e, g, "%s[%d]" % (path, i), loose)
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
        if (math.isnan(e) and math.isnan(g)) or e == g:
            return None
        if math.isfinite(e) and math.isfinite(g):
            if abs(e - g) <= REL_TOL * max(abs(e), abs(g)) or (loose and loose(path, e, g)):
                return None
        return "%s: expected %r, got %r" % (path, e, g)
    if is_complex(expected):
        if not is_complex(got):
            return "%s: expected complex %r, got %r (%s)" % (path, expected, got, type(got).__name__)
        return same(float(expected.real), float(got.real), path + ".real", loose) or same(
            float(expected.imag), float(got.imag), path + ".imag", loose
        )
    if isinstance(expected, str):
        if not isinstance(got, str) or got != expected:
            return "%s: expected %r, got %r (%s)" % (path, expected, got, type(got).__name__)
        return None
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
    if is_complex(x):
        z = complex(x)
        if all(math.isfinite(p) for p in (z.real, z.imag)):
            return repr(z)
        return "complex(%s, %s)" % (fmt(z.real), fmt(z.imag))
    raise CheckError("cannot format %r (%s)" % (x, type(x).__name__))


def check_args(args, arg_checks, loose=None):
    """Failure messages of the `argN == LIST` clauses, after the call."""
    fails = []
    env = eval_env()
    for argno, list_src in arg_checks:
        if argno >= len(args) or not hasattr(args[argno], "tolist"):
            fails.append("arg%d is not an array" % argno)
            continue
        msg = same(eval(list_src, env), args[argno].tolist(), "arg%d" % argno, loose)
        if msg:
            fails.append(msg)
    return fails


def with_args(head, args, arg_checks):
    """The check text `head ; argN == ...`, with each `?` clause filled from the call's `args`."""
    clauses = [head]
    for argno, src in arg_checks:
        if src == "?":
            src = fmt(args[argno].tolist())
        clauses.append("arg%d == %s" % (argno, src))
    return " ; ".join(clauses)


def kernel_files(here, argv):
    """The files named in `argv`, or every corpus file in `here`."""
    if argv:
        return [os.path.abspath(p) for p in argv]
    files = sorted(glob.glob(os.path.join(here, "*.py")))
    return [f for f in files if not os.path.basename(f).startswith("verify")]


def check_lines(lines):
    """(index, check text, indent) of each `# check:` line."""
    for i, line in enumerate(lines):
        m = CHECK_RE.match(line)
        if m:
            yield i, m.group(1), line[: len(line) - len(line.lstrip())]


def generate_file(path, rel, lines, mod, generate_line):
    """Rewrites the file at `path` with `generate_line(mod, check)` for each check line."""
    changed = False
    for i, text, indent in check_lines(lines):
        try:
            new = generate_line(mod, text)
        except Exception as exc:  # noqa: BLE001
            print("GEN-ERROR %s:%d: %s: %s" % (rel, i + 1, type(exc).__name__, exc))
            continue
        if new != text:
            lines[i] = "%s# check: %s" % (indent, new)
            changed = True
    if changed:
        with open(path, "w") as fh:
            fh.write("\n".join(lines))
        print("generated %s" % rel)


def run_files(here, argv, prefix, what, run_check, generate_line, unchecked, after_check=None):
    """Checks the files that `argv` names, or every corpus file in `here`; returns (passed,
    failed), or None when `argv` starts with `--generate` (then it fills the files' `?`
    placeholders instead). `prefix` names the imported modules, `what` the checked thing
    (function, kernel); `run_check(mod, text)` returns a check's failure messages,
    `generate_line(mod, text)` its filled text, `unchecked(mod, src)` the names without a
    check line, and `after_check(rel, line_number)` runs after each check."""
    generate = argv[:1] == ["--generate"]
    paths = kernel_files(here, argv[1:] if generate else argv)
    passed = failed = 0
    for path in paths:
        rel = os.path.relpath(path)
        with open(path) as fh:
            lines = fh.read().split("\n")
        try:
            mod = load_module(path, prefix)
        except Exception as exc:  # noqa: BLE001
            print("FAIL %s: import error %s: %s" % (rel, type(exc).__name__, exc))
            failed += 1
            continue
        if generate:
            generate_file(path, rel, lines, mod, generate_line)
            continue
        for name in unchecked(mod, "\n".join(lines)):
            print("note %s: %s %s has no check line" % (rel, what, name))
        for i, text, _ in check_lines(lines):
            # `# gpu-only: why` above a check: numba-cuda runs it, its simulator cannot.
            if i > 0 and lines[i - 1].strip().startswith("# gpu-only:") and os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
                print("skip %s:%d: %s" % (rel, i + 1, lines[i - 1].strip()[2:]))
                continue
            try:
                fails = run_check(mod, text)
            except Exception as exc:  # noqa: BLE001
                fails = ["bad check: %s: %s" % (type(exc).__name__, exc)]
            if after_check:
                after_check(rel, i + 1)
            if fails:
                failed += 1
                print("FAIL %s:%d: %s\n    %s" % (rel, i + 1, text[:200], "\n    ".join(fails)))
            else:
                passed += 1
    return None if generate else (passed, failed)
