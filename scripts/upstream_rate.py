#!/usr/bin/env python3
"""How much real upstream Numba code twinjit loads, compiles and runs with Numba's result.

Usage (with a Python that has numba and numpy, e.g. a venv made with `pip install numba`):

    python scripts/upstream_rate.py --numba-mirror DIR --cuda-mirror DIR \\
        --twinjit target/release/twinjit --work WORK [--record] [--modules N|all] [--jobs 2]
        [--python PYTHON_WITH_NUMBA]

DIR are git directories of numba/numba and NVIDIA/numba-cuda (bare mirrors are fine: files are
read with `git show HEAD:path`). Nothing upstream is part of this repository: the script copies
the files it needs into WORK/upstream/ at run time. It writes WORK/results.json and
WORK/summary.md and prints the summary.

Levels measured

1. Files (`twinjit check FILE`, as a user would hand the file over): Numba's test modules
   (numba/tests/*.py, numba/tests/doc_examples/*.py), the documentation's .py files and the
   Python code blocks of its .rst pages (each block one file), and numba-cuda's kernel tests
   (numba_cuda/numba/cuda/tests/{cudapy,doc_examples}/*.py). A file loads when `check` exits 0.

2. Recorded host calls (`--record`; otherwise the recordings already in WORK/record/ are
   replayed). Each selected test module of the mirror is imported as `numba.tests.NAME` (so its
   relative imports find the installed package's `support` helpers) and run with unittest in a
   subprocess with a time budget; the documentation's .py files and .rst blocks are executed
   too. Before that, `numba.core.dispatcher.Dispatcher.__call__` is replaced by a wrapper (an
   assignment on the Python subclass replaces its tp_call slot, so every call from Python of
   an @njit / @jit / njit(pyfunc) dispatcher goes through it; calls between compiled
   functions do not). Tests that re-run themselves in a child process
   (@TestCase.run_test_in_subprocess) are run in the recording process instead. Per function (file, first line, qualname) the wrapper keeps up to 3
   replayable calls: arguments bound to parameter names (defaults filled in), a copy of the
   arrays before the call, Numba's return value (or the exception raised by compiled code)
   and the arrays after the call. Arguments that `twinjit run` cannot express (anything but
   bool/int/float scalars and 1-3 dimensional bool/int32/int64/float32/float64 arrays, aliased
   arrays, *args) make the call "harness" (not replayable). Calls that Numba itself refused to
   compile (a NumbaError or dispatch error raised outside compiled code) are not counted.
   Only functions defined in the tests and documentation are kept (not Numba's own library).

   Each recorded call is replayed with `twinjit run` three times:
     as written -- on the function's own upstream file (the whole file);
     as njit    -- the same file with `--compile-plain`: its undecorated functions compiled as
                   `njit(pyfunc)` compiles them, which is how the tests compile most of theirs;
     isolated   -- on a generated file: `import math`, `import numpy as np`,
                   `from numba import njit`, the imports/constants/jitted callees the function
                   refers to (resolved from its globals and closure when it was recorded), and
                   the function's source re-decorated `@njit` (with the dispatcher's explicit
                   signatures, spelt as strings, and its error_model, fastmath and boundscheck
                   options). Variables bound to module attributes or to jitted functions of
                   another name are replaced by those (`op` -> `np.sum`), so that the body is
                   what is tested. A call whose explicit signature has no string spelling is
                   "harness" here.
   Outcome per call: ok (same return value and array arguments after the call: ints and bools
   exact, floats equal or both NaN or relative error <= 1e-12, same kind; or the same exception
   class), wrong, runtime-error, compile-error (first diagnostic line kept, grouped by a
   normalised message), harness. A function is ok when all its replayable calls are ok
   (harness calls aside); otherwise it takes the outcome of its first call that is not ok.

3. CUDA kernels: twinjit without the `cuda` feature can only load them, so: `twinjit check` on
   each numba-cuda test file as written, and on each `@cuda.jit` function extracted (with the
   device functions and literal module constants it uses, and the file's imports of the names
   it uses from numba, numba.cuda, numba.types, ... re-spelt `from numba import NAME`) into a
   file of its own.

Cost: with the default 40 modules (MODULE_PRIORITY[:40], each cut off after MODULE_BUDGET_S
seconds) the whole run takes about 8 minutes on 2 cores, nearly all of it Numba compiling in
the recording step; without --record (replaying WORK/record/) it takes about 10 seconds.

What it cannot replay: arguments other than bool/int/float scalars and 1-8 dimensional arrays
of bool/int32/int64/float32/float64 (tuples, None, strings, lists, records, complex, other
integer widths, 0-d arrays, jitclass instances), object-mode functions, functions compiled with
a custom pipeline_class, and calls made in a child process. A returned array (alone or in a
tuple; 1-8 dimensions of those dtypes, at most MAX_ARRAY_BYTES) is recorded with its values and
compared with the `return.npy` / `return_K.npy` twinjit writes to `--out`, dtype and shape
included; larger or other arrays, and other objects, read wrong.

Internal subcommand (used by the script itself): `_record` runs in a subprocess per unit.
"""

from __future__ import annotations

import argparse
import ast
import collections
import concurrent.futures as cf
import hashlib
import json
import os
import pickle
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time

# --------------------------------------------------------------------------------------------
# What is read from the mirrors (paths only; the files are copied at run time).

NUMBA_TESTS = re.compile(r"^numba/tests/(doc_examples/|npyufunc/)?[^/]+\.py$")
NUMBA_DOCS_PY = re.compile(r"^docs/source/.+\.py$")
NUMBA_DOCS_RST = re.compile(r"^docs/source/.+\.rst$")
CUDA_TESTS = re.compile(r"^numba_cuda/numba/cuda/tests/(cudapy|doc_examples)/[^/]+\.py$")

# Test modules recorded, most relevant to the numeric subset first; `--modules N` takes the
# first N (default: DEFAULT_MODULES), `--modules all` every test module of the mirror.
MODULE_PRIORITY = [
    "doc_examples.test_examples", "test_usecases", "test_builtins", "test_operators",
    "test_mathlib", "test_casting", "test_range", "test_flow_control", "test_controlflow",
    "test_intwidth", "test_numberctor", "test_conditions_as_predicates", "test_nested_calls",
    "test_recursion", "test_globals", "test_closure", "test_tuples", "test_array_attr",
    "test_indexing", "test_array_iterators", "test_iteration", "test_slices",
    "test_unpack_sequence", "test_optional", "test_maxmin", "test_nan", "test_numbers",
    "test_mandelbrot", "test_blackscholes", "test_array_reductions", "test_array_manipulation",
    "test_array_methods", "test_dyn_array", "test_array_exprs", "test_fancy_indexing",
    "test_exceptions", "test_errormodels", "test_fastmath", "test_boundscheck", "test_complex",
    "test_sort", "test_heapq", "test_random", "test_lists", "test_dicts", "test_sets",
    "test_comprehension", "test_try_except", "test_generators", "test_return_values",
    "test_array_return", "test_locals", "test_storeslice", "test_ssa", "test_dataflow",
    "test_copy_propagate", "test_remove_dead", "test_typeinfer", "test_interproc",
    "test_func_interface", "test_chained_assign", "test_auto_constants",
    "test_array_constants", "test_polynomial", "test_np_functions", "test_ufuncs",
    "test_linalg", "test_unicode", "test_hashing", "test_enums", "test_record_dtype",
    "test_npdatetime", "test_jitclasses", "test_dispatcher", "test_stencils",
    "doc_examples.test_jitclass", "doc_examples.test_literally_usage",
    "doc_examples.test_numpy_generators", "doc_examples.test_rec_array",
    "doc_examples.test_typed_list_usage", "doc_examples.test_typed_dict_usage",
]
DEFAULT_MODULES = 40
MODULE_BUDGET_S = 90  # unittest stops starting new tests in a module after this
MODULE_KILL_S = 150  # and the subprocess is killed after this
CALLS_PER_FUNCTION = 3
MAX_ARRAY_BYTES = 4 << 20
# twinjit's arrays have 1 to 8 dimensions (`twinjit_ir::types::MAX_NDIM`).
MAX_NDIM = 8
REPLAY_TIMEOUT_S = 20
# Documentation .py files that are Sphinx machinery, not examples.
DOCS_SKIP = {"docs/source/conf.py", "docs/source/_ext/ghfiles.py"}

REPLAY_DTYPES = {
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
    "complex64", "complex128",
}


# --------------------------------------------------------------------------------------------
# Extraction


# Replay modes: the upstream file as written; the same file with its plain functions compiled
# as `njit(pyfunc)` compiles them (`twinjit run --compile-plain`, how the tests compile); the
# function isolated in a generated file.
MODES = ("as_written", "as_njit", "isolated")

def git(mirror, *args):
    return subprocess.run(["git", "--git-dir", mirror, *args], check=True, capture_output=True).stdout


def extract(mirror, pattern, dest):
    """Copies the files of HEAD matching `pattern` under `dest`; returns (commit, paths)."""
    commit = git(mirror, "rev-parse", "HEAD").decode().strip()
    names = [n for n in git(mirror, "ls-tree", "-r", "HEAD", "--name-only").decode().splitlines() if pattern.match(n)]
    for n in names:
        path = os.path.join(dest, n)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = git(mirror, "show", f"HEAD:{n}")
        if not os.path.exists(path) or open(path, "rb").read() != data:
            with open(path, "wb") as f:
                f.write(data)
    return commit, sorted(names)


RST_BLOCK = re.compile(r"^(\s*)\.\. (code-block|code|sourcecode|testcode)::\s*(python|python3|py|pycon)?\s*$")


def rst_blocks(text):
    """Python code of an .rst page: `.. code-block:: python` (and code/testcode) directives,
    and `::` literal blocks that mention jit. Doctest prompts are stripped (outputs dropped)."""
    lines = text.splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = RST_BLOCK.match(line)
        literal = line.rstrip().endswith("::") and not line.strip().startswith("..")
        if not (m and (m.group(3) or m.group(2) == "testcode")) and not literal:
            i += 1
            continue
        indent = len(line) - len(line.lstrip())
        j = i + 1
        while j < len(lines) and (lines[j].strip() == "" or lines[j].lstrip().startswith(":")) and (
            lines[j].strip() == "" or len(lines[j]) - len(lines[j].lstrip()) > indent
        ):
            j += 1  # blank lines and directive options
        body = []
        while j < len(lines) and (lines[j].strip() == "" or len(lines[j]) - len(lines[j].lstrip()) > indent):
            body.append(lines[j])
            j += 1
        i = j
        code = textwrap.dedent("\n".join(body)).strip("\n")
        if not code or (literal and "jit" not in code):
            continue
        if ">>>" in code:
            out = []
            for c in code.splitlines():
                if c.startswith(">>> ") or c == ">>>":
                    out.append(c[4:])
                elif c.startswith("... ") or c == "...":
                    out.append(c[4:])
            code = "\n".join(out)
        try:
            ast.parse(code)
        except SyntaxError:
            continue
        blocks.append(code + "\n")
    return blocks


def extract_rst(upstream_numba, rst_paths, dest):
    """Writes each Python block of each .rst page to dest/<page>/blockNN.py; returns
    {page: [block paths]}."""
    out = {}
    for p in rst_paths:
        text = open(os.path.join(upstream_numba, p), encoding="utf-8", errors="replace").read()
        blocks = rst_blocks(text)
        files = []
        for k, b in enumerate(blocks):
            path = os.path.join(dest, p[: -len(".rst")], f"block{k:02d}.py")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(b)
            files.append(path)
        if files:
            out[p] = files
    return out


# --------------------------------------------------------------------------------------------
# Recording (runs in a subprocess, under the Python that has numba)


def _replay_problem(v):
    """None if `twinjit run` can pass `v`, else why not."""
    import numpy as np

    if v is None:
        return None
    if isinstance(v, tuple):
        # `twinjit run` takes flat tuples of scalars: `(int64:1, float64:2.5)`.
        inner = [
            x
            for x in v
            if isinstance(x, (tuple, np.ndarray))
            or _replay_problem(x) is not None
            or (isinstance(x, str) and any(c in x for c in ",()"))
        ]
        return "tuple" if inner or not v else None
    if isinstance(v, (bool, np.bool_)):
        return None
    if isinstance(v, str):
        # `twinjit run` takes a string as `str:TEXT` (a tuple's items are split at commas).
        return None if "\n" not in v else "str with a newline"
    if _dtype_name(v) is not None:
        # A dtype (`np.int16`, `np.dtype('f4')`): twinjit takes it as its name, `str:int16`.
        return None
    if isinstance(v, int):
        # Numba types a Python int past int64 as uint64.
        return None if -(2**63) <= v < 2**64 else "int outside 64 bits"
    if isinstance(v, (float, complex)):
        return None
    if isinstance(v, (np.integer, np.float32, np.float64, np.complex64, np.complex128)):
        return None
    if isinstance(v, np.ndarray):
        if v.dtype.name not in REPLAY_DTYPES or not v.dtype.isnative:
            return f"array of {v.dtype}"
        if not 1 <= v.ndim <= MAX_NDIM:
            return f"{v.ndim}-d array"
        return None
    if isinstance(v, np.generic):
        return f"numpy scalar {v.dtype}"
    return type(v).__name__


def _dtype_name(v):
    """The name of a NumPy dtype given as a scalar class or a dtype object (`np.int16`,
    `np.dtype('f4')`), or None for anything else."""
    import numpy as np

    try:
        if isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic)):
            d = np.dtype(v)
            return d.name if d.name in REPLAY_DTYPES and d.isnative else None
    except TypeError:
        return None
    return None


def _encode_result(v):
    import numpy as np

    if v is None:
        return None
    if isinstance(v, (bool, np.bool_)):
        return ["bool", bool(v)]
    if isinstance(v, str):
        return ["str", v]
    if isinstance(v, dict) or type(v).__name__ == "Dict" and hasattr(v, "items"):
        # twinjit writes a dict as a JSON object, its keys as Python's str() (json.dumps's
        # spelling for bools).
        def key(k):
            if isinstance(k, (bool, np.bool_)):
                return "true" if k else "false"
            if isinstance(k, (float, np.floating)):
                return repr(float(k))
            if isinstance(k, tuple):
                return "(" + ", ".join(key(x) for x in k) + ("," if len(k) == 1 else "") + ")"
            return str(int(k)) if isinstance(k, (int, np.integer)) else str(k)

        return ["dict", [[key(k), _encode_result(x)] for k, x in v.items()]]
    if isinstance(v, (int, np.integer)):
        return ["int", int(v)]
    if isinstance(v, (float, np.floating)):
        return ["float", float(v)]
    if isinstance(v, (complex, np.complexfloating)):
        return ["complex", [float(v.real), float(v.imag)]]
    if isinstance(v, tuple):
        return ["tuple", [_encode_result(x) for x in v]]
    if isinstance(v, list) and len(v) <= 4096:
        # A returned (reflected or typed) list: twinjit's JSON writes it as a list too.
        return ["tuple", [_encode_result(x) for x in v]]
    if isinstance(v, np.ndarray):
        if v.dtype.name in REPLAY_DTYPES and 1 <= v.ndim <= MAX_NDIM and v.nbytes <= MAX_ARRAY_BYTES:
            return ["array", f"{v.dtype}[{v.ndim}d]", v.dtype.name, list(v.shape), v.tolist()]
        return ["array", f"{v.dtype}[{v.ndim}d]"]
    return ["other", type(v).__name__]


def _code_names(code):
    names = set(code.co_names)
    for c in code.co_consts:
        if hasattr(c, "co_names"):
            names |= _code_names(c)
    return names


def _const_repr(v, depth=0):
    import numpy as np

    if isinstance(v, bool) or isinstance(v, np.bool_):
        return repr(bool(v))
    if isinstance(v, (int, np.integer)):
        return repr(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if f != f:
            return "math.nan"
        if f in (float("inf"), float("-inf")):
            return ("-" if f < 0 else "") + "math.inf"
        return repr(f)
    if isinstance(v, tuple) and depth < 3 and len(v) <= 64:
        parts = [_const_repr(x, depth + 1) for x in v]
        if all(p is not None for p in parts):
            return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    if isinstance(v, np.ndarray) and 0 < v.ndim <= MAX_NDIM and v.size <= 1024 and v.dtype.name in REPLAY_DTYPES:
        items = repr(v.tolist())
        if v.dtype.kind in "fc":  # NaN and infinities, which repr() spells as bare names
            items = re.sub(r"\b(nan|inf)\b", r"math.\1", items)
        return f"np.array({items}, dtype=np.{v.dtype.name})"
    # A dtype object (`np.dtype('int32')`), as its scalar type: what `dtype=` reads.
    if isinstance(v, np.dtype) and v.name in REPLAY_DTYPES and v.isnative:
        return f"np.{'bool_' if v.name == 'bool' else v.name}"
    return None


def _func_source(func):
    """(name, source of a plain `def`, decorators stripped) or (None, why)."""
    import inspect

    try:
        src = textwrap.dedent(inspect.getsource(func))
    except (OSError, TypeError) as e:
        return None, f"no source ({e.__class__.__name__})"
    name = func.__name__
    try:
        tree = ast.parse(src)
    except SyntaxError:
        tree = None
    if name != "<lambda>":
        if tree is None:
            return None, "source does not parse"
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                lines = src.splitlines()[node.lineno - 1 : node.end_lineno]
                return name, textwrap.dedent("\n".join(lines)) + "\n"
        return None, "def not found in source"
    # A lambda: find one with the same parameters and turn it into a def.
    params = list(func.__code__.co_varnames[: func.__code__.co_argcount])
    candidates = []
    text = src.strip()
    for attempt in (text, "(" + text + ")", text.rstrip(",)") + ")"):
        try:
            candidates = [n for n in ast.walk(ast.parse(attempt)) if isinstance(n, ast.Lambda)]
            break
        except SyntaxError:
            continue
    for lam in candidates:
        if [a.arg for a in lam.args.args] == params:
            return "lambda_fn", f"def lambda_fn({ast.unparse(lam.args)}):\n    return {ast.unparse(lam.body)}\n"
    return None, "lambda not found in source"


# Module attributes a global or closure variable may be bound to, and how an isolated file
# spells them: (module, prefix in the renamed expression, import line or None).
_ATTR_MODULES = [
    ("math", "math.", None),
    ("numpy", "np.", None),
    ("builtins", "", None),
    ("cmath", "cmath.", "import cmath"),
    ("operator", "operator.", "import operator"),
    ("numba", "numba.", "import numba"),
    ("numba.typed", "numba.typed.", "import numba.typed"),
]


def _deps(func, dispatcher_type, seen, out, extra=None):
    """Appends to `out` what an isolated copy of `func` needs from its globals and closure
    (their values now, as Numba freezes them when it compiles): ("import", line),
    ("const", name, repr), ("func", name, source, options), ("rename", name, expression):
    a variable bound to a module attribute or to a jitted function of another name is
    replaced by that expression (`op` -> `np.sum`), so the body is tested, not the import.
    `extra(f)`, when given, adds what a caller-specific rule finds for each function `f` it
    visits (the kernels' harness: scalar types and captured device arrays)."""
    import importlib
    import types as pytypes

    code = func.__code__
    env = {}
    g = func.__globals__
    for n in _code_names(code):
        if n in g:
            env[n] = g[n]
    if func.__closure__:
        for n, cell in zip(code.co_freevars, func.__closure__):
            try:
                env[n] = cell.cell_contents
            except ValueError:
                pass
    for n, v in sorted(env.items()):
        if isinstance(v, pytypes.ModuleType):
            mod = v.__name__
            if (mod, n) not in (("math", "math"), ("numpy", "np")):
                out.append(("import", f"import {mod}" if mod == n else f"import {mod} as {n}"))
        elif isinstance(v, dispatcher_type) or (
            isinstance(v, pytypes.FunctionType) and v.__code__.co_filename == code.co_filename
        ):
            py = getattr(v, "py_func", v)
            name, src = _func_source(py)
            if name is None:
                continue
            if name != n:
                out.append(("rename", n, name))
            if id(py) in seen:
                continue
            seen.add(id(py))
            if extra is not None:
                out.extend(extra(py))
            _deps(py, dispatcher_type, seen, out, extra)
            out.append(("func", name, src, _options(getattr(v, "targetoptions", {}))))
        elif isinstance(v, type) and issubclass(v, Exception) and v.__module__ != "builtins":
            # An exception class of the module (`class MyError(Exception): pass`), with the
            # module's classes it derives from, bases first.
            chain = []
            c = v
            while isinstance(c, type) and c.__module__ != "builtins" and issubclass(c, Exception):
                chain.append(c)
                c = c.__bases__[0]
            for c in reversed(chain):
                out.append(("class", c.__name__, c.__bases__[0].__name__))
        elif isinstance(v, type) and issubclass(v, tuple) and all(isinstance(f, str) for f in getattr(v, "_fields", [1])):
            # A namedtuple class, as the module defined it (twinjit reads the definition).
            out.append(("import", "import collections"))
            out.append(("const", n, f"collections.namedtuple({v.__name__!r}, {list(v._fields)!r})"))
        else:
            r = _const_repr(v)
            if r is not None and not callable(v):
                out.append(("const", n, r))
                continue
            if v is None:  # not an attribute of a module (`getattr(math, n, None) is None`)
                out.append(("const", n, "None"))
                continue
            for modname, prefix, line in _ATTR_MODULES:
                try:
                    mod = importlib.import_module(modname)
                except ImportError:
                    continue
                attr = getattr(v, "__name__", None)
                if not (attr and getattr(mod, attr, None) is v):
                    attr = n if getattr(mod, n, None) is v else None
                if attr is None:
                    continue
                if modname == "math" and attr == n:
                    out.append(("import", f"from math import {n}"))
                elif not (modname == "builtins" and attr == n):
                    out.append(("rename", n, prefix + attr))
                    if line:
                        out.append(("import", line))
                break


class _Tee:
    """A stdout that keeps what is written and passes it on."""

    def __init__(self, inner):
        self.inner, self.parts = inner, []

    def write(self, x):
        self.parts.append(x)
        return self.inner.write(x)

    def flush(self):
        self.inner.flush()

    def text(self):
        return "".join(self.parts)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def _sig_text(sig):
    """A Numba signature object in the string spelling, e.g. "float64(int64, float64[::1])",
    or None when an argument type has no such spelling here."""

    from numba.core import types

    def one(t):
        t = types.unliteral(t)
        name = str(t)
        if name in REPLAY_DTYPES:
            return name
        if name == "none":
            return "void"
        if hasattr(t, "ndim") and hasattr(t, "layout") and str(getattr(t, "dtype", "")) in REPLAY_DTYPES:
            dims = [":"] * t.ndim
            if t.layout == "C":
                dims[-1] = "::1"
            elif t.layout == "F":
                dims[0] = "::1"
            return f"{t.dtype}[{', '.join(dims)}]"
        return None

    parts = [one(t) for t in sig.args]
    if None in parts:
        return None
    ret = one(sig.return_type)  # when it has no spelling, the arguments alone: "(int64, int64)"
    return f"{ret or ''}({', '.join(parts)})"


def _simple_options(opts):
    """Decorator options worth keeping (fastmath flag sets become True)."""
    out = {}
    for k, v in opts.items():
        if k == "fastmath" and isinstance(v, (set, frozenset, dict)) or type(v).__name__ == "FastMathOptions":
            v = bool(v)
        if k == "pipeline_class":
            v = getattr(v, "__name__", str(v))
        if isinstance(v, (bool, int, float, str, type(None))):
            out[k] = v
    return out


def _options(opts):
    """The decorator options that change results, as `@njit(...)` keyword text."""
    keep = []
    for k in ("error_model", "fastmath", "boundscheck"):
        v = opts.get(k)
        if v is None or (k == "fastmath" and not v) or (k == "error_model" and v == "python"):
            continue
        if k == "fastmath":
            v = True
        keep.append(f"{k}={v!r}")
    return ", ".join(keep)


def write_pickle(path, obj):
    """Writes `obj` to `path` whole or not at all (a recorder killed mid-write leaves the last)."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        pickle.dump(obj, f)
    os.replace(tmp, path)


def budgeted_result(t0, budget, log, after_test=None):
    """A unittest result class that starts no test once `budget` seconds have passed since `t0`
    (saying so once in `log`), calling `after_test()` after each test."""
    import unittest

    class Budgeted(unittest.TextTestResult):
        def startTest(self, test):
            if time.time() - t0 > budget:
                if not self.shouldStop:
                    log.append(f"budget of {budget:.0f}s reached; later tests not run")
                self.stop()
            super().startTest(test)

        def stopTest(self, test):
            super().stopTest(test)
            if after_test is not None:
                after_test()

    return Budgeted


def dump_on_sigterm(log, dump):
    """On SIGTERM (the parent's time limit): note it, write what was recorded, exit."""

    def on_term(*_):
        log.append("killed (SIGTERM)")
        dump()
        os._exit(3)

    signal.signal(signal.SIGTERM, on_term)


def run_limited(cmd, logpath, env, cwd, limit_s):
    """Runs `cmd` in a session of its own, output to `logpath`; after `limit_s` seconds SIGTERM
    (the recorder writes what it has), then SIGKILL. Returns the exit status."""
    with open(logpath, "w") as logf:
        p = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True)
        try:
            p.wait(limit_s)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
    return p.returncode


def record_main(argv):
    """`_record --out FILE.pkl --budget S --root DIR... (--test MOD=PATH | --script PATH)...`"""
    ap = argparse.ArgumentParser(prog="upstream_rate.py _record")
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=MODULE_BUDGET_S)
    ap.add_argument("--root", action="append", default=[])
    ap.add_argument("--test", action="append", default=[])
    ap.add_argument("--scripts", action="append", default=[], help="comma-separated files run in one namespace")
    a = ap.parse_args(argv)
    import importlib
    import importlib.util
    import inspect
    import unittest
    import numpy as np
    import numba
    from numba.core import compiler, dispatcher as dmod
    from numba.core.errors import NumbaError

    roots = [os.path.realpath(r) + os.sep for r in a.root]
    import numba.tests

    roots.append(os.path.dirname(os.path.realpath(numba.tests.__file__)) + os.sep)
    funcs = {}  # key -> record
    base_call = dmod.Dispatcher.__call__
    state = {"depth": 0}

    def func_record(disp):
        py = disp.py_func
        code = py.__code__
        opts = dict(getattr(disp, "targetoptions", {}))
        objmode = bool(opts.get("forceobj")) or opts.get("nopython") is False
        # A test may compile one function in object mode and again in nopython mode (Numba's
        # own tests run each case under both flags): two records, so the nopython calls count.
        key = (code.co_filename, code.co_firstlineno, py.__qualname__, objmode)
        r = funcs.get(key)
        if r is not None:
            return r
        fname = os.path.realpath(code.co_filename)
        if not any(fname.startswith(root) for root in roots):
            funcs[key] = r = {"skip": True}
            return r
        name, src = _func_source(py)
        try:
            sig = inspect.signature(py)
        except (TypeError, ValueError):
            sig = None
        r = {
            "skip": False,
            "file": fname,
            "line": code.co_firstlineno,
            "qualname": py.__qualname__,
            "name": py.__name__,
            "iso_name": name,
            "iso_source": src if name else None,
            "iso_problem": None if name else src,
            "options": _simple_options(opts),
            "objmode": bool(opts.get("forceobj")) or opts.get("nopython") is False,
            "custom_pipeline": getattr(getattr(disp, "_compiler", None), "pipeline_class", None)
            not in (None, compiler.Compiler),
            "explicit_sigs": False,
            "params": list(sig.parameters) if sig else None,
            # `@vectorize` / `@guvectorize`: how to decorate the isolated copy.
            "ufunc": getattr(disp, "ufunc", None),
            "calls": [],
            "harness": [],
            "refused": 0,
        }
        funcs[key] = r
        r["_sig"] = sig
        return r

    def make_wrapper(base_call, view):
        def wrapper(self, *args, **kwargs):
            if state["depth"]:
                return base_call(self, *args, **kwargs)
            try:
                meta = view(self)
                r = func_record(meta)
            except Exception:
                return base_call(self, *args, **kwargs)
            if r["skip"] or len(r["calls"]) >= CALLS_PER_FUNCTION:
                return base_call(self, *args, **kwargs)
            problem = None
            bound = None
            if r["objmode"]:
                problem = "object-mode function"
            elif r["custom_pipeline"]:
                problem = "custom compiler pipeline (pipeline_class)"
            elif r["_sig"] is None:
                problem = "no signature"
            elif any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in r["_sig"].parameters.values()):
                problem = "*args/**kwargs parameter"
            else:
                try:
                    b = (r["_sig"].bind_partial if r.get("ufunc") else r["_sig"].bind)(*args, **kwargs)
                    b.apply_defaults()
                    bound = dict(b.arguments)
                except TypeError:
                    problem = "arguments do not bind"
            if bound is not None:
                for n, v in bound.items():
                    why = _replay_problem(v)
                    if why:
                        problem = f"argument type not replayable ({why})"
                        break
                arrays = [v for v in bound.values() if isinstance(v, np.ndarray)]
                if problem is None and sum(x.nbytes for x in arrays) > MAX_ARRAY_BYTES:
                    problem = "arrays too large to record"
                if problem is None:
                    for i, x in enumerate(arrays):
                        for y in arrays[i + 1 :]:
                            if np.shares_memory(x, y):
                                problem = "aliased array arguments"
            if problem:
                if len(r["harness"]) < CALLS_PER_FUNCTION:
                    r["harness"].append(problem)
                return base_call(self, *args, **kwargs)
            # order="K": a Fortran-ordered argument (`a.T`) stays Fortran-ordered in its .npy
            # file, which `twinjit run` reads as such (a strided view is still saved contiguous).
            before = {n: (v.copy(order="K") if isinstance(v, np.ndarray) else v) for n, v in bound.items()}
            # What the isolated copy needs, per dispatcher: a test may compile one function with
            # other options, or a closure of it over other values. Numba freezes globals and
            # closure variables when a dispatcher first compiles, so a variable the test changes
            # afterwards must not reach the copy (`Y = 12` after `jit(add_Y)` ran).
            context = {"options": _simple_options(meta.targetoptions), "deps": [], "sigs": None, "explicit": False}
            frozen = state.setdefault("frozen_deps", {})
            if id(self) in frozen and frozen[id(self)][0] is self:
                context["deps"] = frozen[id(self)][1]
            else:
                try:
                    _deps(meta.py_func, dmod.Dispatcher, {id(meta.py_func)}, context["deps"])
                except Exception as e:  # never let the harness break a test
                    context["deps"] = [("error", repr(e))]
                frozen[id(self)] = (self, context["deps"])
            if not meta._can_compile:  # explicit signatures: Numba converts the arguments
                r["explicit_sigs"] = context["explicit"] = True
                texts = [_sig_text(sg) for sg in meta.nopython_signatures]
                context["sigs"] = texts if all(texts) else None
            state["depth"] += 1
            # What compiled code prints (through sys.stdout), kept and passed on, so that the
            # replay compares it; a nested call's print is its caller's too.
            printed = _Tee(sys.stdout)
            saved_stdout, sys.stdout = sys.stdout, printed
            try:
                res = base_call(self, *args, **kwargs)
            except BaseException as e:
                tb = e.__traceback__
                while tb.tb_next is not None:
                    tb = tb.tb_next
                if tb.tb_frame.f_code is wrapper.__code__ and not isinstance(e, NumbaError):
                    # Raised by compiled code (no Python frame below this one).
                    r["calls"].append({"args": before, "expected": ["raise", type(e).__name__, str(e)[:200]], "after": {},
                                       **context})
                else:
                    r["refused"] += 1
                raise
            finally:
                state["depth"] -= 1
                sys.stdout = saved_stdout
            after = {n: v.copy(order="K") for n, v in bound.items() if isinstance(v, np.ndarray)}
            r["calls"].append({"args": before, "expected": _encode_result(res), "after": after,
                               "stdout": printed.text(), **context})
            return res

        return wrapper

    dmod.Dispatcher.__call__ = make_wrapper(base_call, lambda d: d)

    # User ufuncs called from Python (`@vectorize` and `@guvectorize` on the CPU; a
    # target='parallel' ufunc is a plain NumPy ufunc, which cannot be hooked).
    from numba.np.ufunc import dufunc as dumod, gufunc as gumod

    class _UfuncView:
        def __init__(self, u):
            gu = isinstance(u, gumod.GUFunc)
            inner = u.gufunc_builder if gu else u._dispatcher
            self.py_func = inner.py_func
            self.targetoptions = dict(getattr(inner, "targetoptions", {}))
            self._can_compile = True
            self.nopython_signatures = []
            lazy = u.is_dynamic if gu else not u._frozen
            sigs = None
            if not lazy:
                raw = inner._sigs if gu else list(inner.overloads.keys())
                sigs = [_sig_text(x) for x in raw]
                sigs = [x.replace("void(", "(") if gu else x for x in sigs] if all(sigs) else None
            self.ufunc = {"kind": "guvectorize" if gu else "vectorize", "sigs": sigs,
                          "layout": u.gufunc_builder.signature if gu else None, "lazy": lazy,
                          "writable": list(getattr(u.gufunc_builder, "writable_args", None) or ()) if gu else []}

    dumod.DUFunc.__call__ = make_wrapper(dumod.DUFunc.__call__, _UfuncView)
    gumod.GUFunc.__call__ = make_wrapper(gumod.GUFunc.__call__, _UfuncView)

    # Tests decorated @run_test_in_subprocess (or calling subprocess_test_runner) re-run
    # themselves in a child `python -m numba.runtests ...`, which the hook would not see (and
    # which would import the installed module, not the mirror's): run them in this process.
    from numba.tests import support

    original_runner = support.TestCase.subprocess_test_runner

    def in_process_runner(self, test_module, test_class=None, test_name=None, envvars=None,
                          timeout=60, flags=None, _subproc_test_env="1"):
        if not (test_class and test_name) or flags:
            return original_runner(self, test_module, test_class, test_name, envvars, timeout, flags,
                                   _subproc_test_env)
        saved = dict(os.environ)
        os.environ["SUBPROC_TEST"] = _subproc_test_env
        os.environ.update(envvars or {})
        try:
            mod = sys.modules.get(test_module) or importlib.import_module(test_module)
            result = unittest.TestResult()
            getattr(mod, test_class)(test_name).run(result)
        finally:
            os.environ.clear()
            os.environ.update(saved)
        problems = result.errors + result.failures
        self.assertFalse(problems, "\n".join(t for _, t in problems))

    support.TestCase.subprocess_test_runner = in_process_runner

    progress = {"done": 0, "last": time.time()}

    def dump(*_):
        progress["last"] = time.time()
        data = []
        for r in funcs.values():
            if r.get("skip"):
                continue
            r = dict(r)
            r.pop("_sig", None)
            data.append(r)
        write_pickle(a.out, {"functions": data, "log": log, "done": progress["done"]})

    log = []
    dump_on_sigterm(log, dump)
    t0 = time.time()

    def every_15s():
        if time.time() - progress["last"] > 15:  # survive a crash of a later test
            dump()

    Budgeted = budgeted_result(t0, a.budget, log, every_15s)

    for spec in a.test:
        modname, path = spec.split("=", 1)
        try:
            sp = importlib.util.spec_from_file_location(modname, path)
            mod = importlib.util.module_from_spec(sp)
            sys.modules[modname] = mod
            sp.loader.exec_module(mod)
            suite = unittest.defaultTestLoader.loadTestsFromModule(mod)
            runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=0, resultclass=Budgeted)
            res = runner.run(suite)
            log.append(f"{modname}: ran {res.testsRun} tests, {len(res.failures)} failures, "
                       f"{len(res.errors)} errors, {len(res.skipped)} skipped")
        except BaseException as e:  # noqa: BLE001 - a broken module is a result too
            log.append(f"{modname}: import/run failed: {e.__class__.__name__}: {str(e)[:200]}")
    for group in a.scripts:
        ns = {"__name__": "__main__"}
        for path in group.split(","):
            try:
                code = compile(open(path).read(), path, "exec")
                exec(code, ns)  # noqa: S102 - upstream documentation examples (the point)
                log.append(f"{path}: ran")
            except BaseException as e:  # noqa: BLE001
                log.append(f"{path}: {e.__class__.__name__}: {str(e)[:120]}")
        progress["done"] += 1
        dump()
        if time.time() - t0 > a.budget:
            log.append("budget reached")
            break
    dump()
    return 0


def record(args, upstream_numba, docs_py, rst_files, modules):
    """Runs the recorder subprocesses; returns the list of per-unit pickles."""
    rec = os.path.join(args.work, "record")
    shutil.rmtree(rec, ignore_errors=True)
    os.makedirs(rec)
    units = []  # (name, ["--test", ...] or None, script groups)
    for m in modules:
        path = os.path.join(upstream_numba, "numba", "tests", *m.split(".")) + ".py"
        units.append((m, ["--test", f"numba.tests.{m}={path}"], []))
    if docs_py:
        units.append(("docs_py", [], [os.path.join(upstream_numba, p) for p in docs_py]))
    if rst_files:
        units.append(("docs_rst", [], [",".join(fs) for fs in rst_files.values()]))
    me = os.path.abspath(__file__)
    env = dict(os.environ, NUMBA_NUM_THREADS="1", NUMBA_ENABLE_CUDASIM="1", PYTHONWARNINGS="ignore")

    def run_part(name, part, extra):
        out = os.path.join(rec, f"{name}.{part}.pkl")
        cmd = [args.python, me, "_record", "--out", out, "--budget", str(MODULE_BUDGET_S),
               "--root", upstream_numba, *extra]
        rc = run_limited(cmd, os.path.join(rec, f"{name}.{part}.log"), env, rec, MODULE_KILL_S)
        done = pickle.load(open(out, "rb"))["done"] if os.path.exists(out) else 0
        return rc, done

    def one(unit):
        name, tests, groups = unit
        t = time.time()
        if tests:
            rc, _ = run_part(name, 0, tests)
        else:  # script groups: a crash (some examples need a GPU) skips that group only
            start, part, rc = 0, 0, 0
            while start < len(groups):
                rc, done = run_part(name, part, sum((["--scripts", g] for g in groups[start:]), []))
                start += done + (1 if rc != 0 else 0)
                part += 1
        print(f"  recorded {name:40s} {time.time() - t:6.1f}s rc={rc}", flush=True)

    with cf.ThreadPoolExecutor(args.jobs) as ex:
        list(ex.map(one, units))


# --------------------------------------------------------------------------------------------
# Replay


def run_twinjit(args, cmd, timeout=REPLAY_TIMEOUT_S):
    env = dict(os.environ, TWINJIT_CACHE_DIR=os.path.join(args.work, "twinjit-cache"))
    try:
        p = subprocess.run([args.twinjit, *cmd], capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, "", "timeout"
    return p.returncode, p.stdout, p.stderr


RUNTIME = re.compile(r"^error: ([A-Za-z_][A-Za-z_0-9]*(Error|Exception)): ")


def first_diag(stderr):
    """The first line of the error, past twinjit's warnings about other functions."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if not line.startswith("twinjit: warning:"):
            return line
    return lines[0] if lines else "(no diagnostic)"


# Backticked text kept when grouping diagnostics: constructs, not names.
KEEP_QUOTED = {"is", "is not", "in", "not in", "for ... else", "while ... else", "yield", "...", "*args",
               "**kwargs", "with", "lambda", "global", "nonlocal", "del", "try", "assert", "async", "await"}


def _group_quoted(m):
    q = m.group(1)
    if q in KEEP_QUOTED:
        return f"`{q}`"
    if re.fullmatch(r"(np|numpy)\.[\w.]+", q):
        return "`np.*`"
    if re.fullmatch(r"(math|cmath)\.\w+", q):
        return "`math.*`"
    if re.fullmatch(r"cuda\.[\w.]+", q):
        return "`cuda.*`"
    if re.fullmatch(r"\.\w+\(\)", q):
        return "`.method()`"
    return "`_`"


def normalize(msg):
    """Groups diagnostics: strips `error:`, replaces quoted names, numbers and types."""
    m = re.sub(r"^error(\[[^\]]*\])?:\s*", "", msg)
    m = re.sub(r"`([^`]*)`", _group_quoted, m)
    m = re.sub(r"'[^']*'", "'_'", m)
    m = re.sub(r"\barray\([^()]*\)", "array(..)", m)
    m = re.sub(r"\b(float32|float64|int32|int64|bool|uint\d+|int\d+|complex\d+|none)\b", "T", m)
    m = re.sub(r"\b\d+\b", "N", m)
    m = re.sub(r"(at|in) \S+\.py:N:N", r"\1 F", m)
    return m[:140]


def floats_equal(a, b):
    if a == b:
        return True
    if a != a and b != b:
        return True
    if a != a or b != b or a in (float("inf"), float("-inf")) or b in (float("inf"), float("-inf")):
        return False
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b))


def json_to_py(v):
    if isinstance(v, str):
        return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}.get(v, v)
    return v


def result_matches(expected, got, load=None, name="return", uninit=False):
    """`expected` is the recorder's encoding; `got` twinjit's JSON value; `load(name)` reads a
    returned array twinjit wrote to `--out` (`return.npy`, `return_K.npy` in tuples). With
    `uninit` (the function returns `np.empty`/`np.empty_like` arrays it never writes, whose
    elements are whatever memory held) a returned array matches by dtype and shape."""
    if isinstance(got, dict) and expected and expected[0] == "array":
        if len(expected) < 5 or (load is None and "data" not in got):
            return False
        import numpy as np

        if "data" in got:
            # A small array inside a list or tuple: twinjit prints its elements.
            def py(v):
                if isinstance(v, list):
                    return [py(x) for x in v]
                if isinstance(v, dict):
                    return complex(json_to_py(v["real"]), json_to_py(v["imag"]))
                return json_to_py(v)

            arr = np.array(py(got["data"]), dtype=got["dtype"]).reshape(got["shape"])
        else:
            arr = load(name)
        if arr is None or got.get("dtype") != expected[2] or list(got.get("shape", [])) != expected[3]:
            return False
        if uninit:
            return True
        want = np.array(expected[4], dtype=expected[2]).reshape(expected[3])
        return arrays_match(np, want, arr)
    if expected and expected[0] == "tuple" and isinstance(got, list) and len(got) == len(expected[1]):
        return all(
            result_matches(e, g, load, f"{name}_{k}", uninit) for k, (e, g) in enumerate(zip(expected[1], got))
        )
    if expected and expected[0] == "str":
        return isinstance(got, str) and got == expected[1]
    if expected and expected[0] == "dict":
        return (
            isinstance(got, dict)
            and list(got) == [k for k, _ in expected[1]]
            and all(result_matches(e, got[k]) for k, e in expected[1])
        )
    got = json_to_py(got)
    if expected is None:
        return got is None
    kind, val = expected[0], expected[1]
    if kind == "bool":
        return isinstance(got, bool) and got == val
    if kind == "int":
        return isinstance(got, int) and not isinstance(got, bool) and got == val
    if kind == "float":
        return isinstance(got, float) and floats_equal(val, got)
    if kind == "complex":
        if not isinstance(got, dict) or set(got) != {"real", "imag"}:
            return False
        re, im = json_to_py(got["real"]), json_to_py(got["imag"])
        return all(isinstance(x, float) for x in (re, im)) and floats_equal(val[0], re) and floats_equal(val[1], im)
    if kind == "tuple":
        return isinstance(got, list) and len(got) == len(val) and all(result_matches(e, g) for e, g in zip(val, got))
    return False  # arrays and other objects: twinjit's JSON cannot hold them


def arrays_match(np, a, b):
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "c":
        return arrays_match(np, a.real.copy(), b.real.copy()) and arrays_match(np, a.imag.copy(), b.imag.copy())
    if a.dtype.kind == "f":
        both_nan = np.isnan(a) & np.isnan(b)
        close = (a == b) | (np.abs(a - b) <= 1e-12 * np.maximum(np.abs(a), np.abs(b)))
        return bool(np.all(both_nan | close))
    return bool(np.array_equal(a, b))


def scalar_arg(v):
    import numpy as np

    if v is None:
        return "none"
    if isinstance(v, str):
        return "str:" + v
    if _dtype_name(v) is not None:
        return "str:" + _dtype_name(v)
    if isinstance(v, tuple):
        return "(" + ", ".join(scalar_arg(x) for x in v) + ")"
    if isinstance(v, (bool, np.bool_)):
        return "bool:" + ("true" if v else "false")
    if isinstance(v, np.integer):
        return f"{v.dtype.name}:{int(v)}"
    if isinstance(v, int):
        return f"{'int64' if v < 2**63 else 'uint64'}:{v}"
    if isinstance(v, np.float32):
        return f"float32:{float(v)!r}"
    if isinstance(v, (complex, np.complexfloating)):
        z = complex(v)
        sign = "" if repr(z.imag).startswith("-") else "+"
        kind = "complex64" if isinstance(v, np.complex64) else "complex128"
        return f"{kind}:{z.real!r}{sign}{z.imag!r}j"
    return f"float64:{float(v)!r}"


def replay_call(args, file, func, call, calldir, mode="as_written"):
    """One `twinjit run`; returns (outcome, detail)."""
    import numpy as np

    os.makedirs(calldir, exist_ok=True)
    cmd = ["run", file, func, "--cache", "off"]
    if mode == "as_njit":
        # The whole upstream file, its plain functions compiled as the tests compile them.
        cmd.append("--compile-plain")
    for n, v in call["args"].items():
        if isinstance(v, np.ndarray):
            path = os.path.join(calldir, f"in_{n}.npy")
            np.save(path, v)
            cmd += ["--arg", f"{n}={path}"]
        else:
            cmd += ["--arg", f"{n}={scalar_arg(v)}"]
    outdir = os.path.join(calldir, "out")
    shutil.rmtree(outdir, ignore_errors=True)
    cmd += ["--out", outdir]
    rc, out, err = run_twinjit(args, cmd)
    exp = call["expected"]
    if rc is None:
        return "runtime-error", "timeout"
    if rc != 0:
        d = first_diag(err)
        m = RUNTIME.match(d)
        if m:
            if exp and exp[0] == "raise" and exp[1] == m.group(1):
                return "ok", d
            if exp and exp[0] == "raise":
                return "wrong", f"raised {m.group(1)}, Numba raised {exp[1]}"
            return "runtime-error", d
        return "compile-error", d
    if exp and exp[0] == "raise":
        return "wrong", f"returned normally; Numba raised {exp[1]}: {exp[2]}"
    # What the function printed comes before the result's JSON line.
    printed, _, last = out.rstrip("\n").rpartition("\n")
    printed = printed + "\n" if printed else ""
    if call.get("stdout") is not None and printed != call["stdout"]:
        return "wrong", f"printed {printed[:60]!r}, Numba printed {call['stdout'][:60]!r}"
    try:
        got = json.loads(last)["return"]
    except (ValueError, KeyError):
        return "wrong", f"unreadable output: {out[:100]}"
    def load(name):
        path = os.path.join(outdir, f"{name}.npy")
        return np.load(path) if os.path.exists(path) else None

    # An isolated function that returns `np.empty(...)` without writing into any array: its
    # elements are undefined (under Numba too), so only its dtype and shape can be compared.
    with open(file) as fh:
        text = fh.read()
    uninit = (
        mode == "isolated"
        and re.search(r"\bempty(_like)?\(", text) is not None
        and re.search(r"\]\s*[-+*/]?=|\.fill\(|\[:\]", text) is None
    )
    if not result_matches(exp, got, load, uninit=uninit):
        return "wrong", f"returned {json.dumps(got)[:100]}, Numba {json.dumps(exp)[:100]}"
    for n, want in call["after"].items():
        path = os.path.join(outdir, f"{n}.npy")
        if not os.path.exists(path):
            return "wrong", f"array `{n}` not written back"
        if not arrays_match(np, want, np.load(path)):
            return "wrong", f"array `{n}` differs after the call"
    return "ok", ""


class _Rename(ast.NodeTransformer):
    def __init__(self, renames):
        self.renames = renames

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.renames:
            return ast.copy_location(ast.parse(self.renames[node.id], mode="eval").body, node)
        return node


def _renamed(src, renames):
    if not renames:
        return src
    tree = _Rename(renames).visit(ast.parse(src))
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def isolated_file(fr, call):
    """The generated file holding just this function and what it referred to at this call."""
    lines = ["import math", "import numpy as np", "from numba import njit"]
    renames = {d[1]: d[2] for d in call["deps"] if d[0] == "rename"}
    body = []
    seen = set()
    for d in call["deps"]:
        if d[0] == "import" and d[1] not in lines:
            lines.append(d[1])
        elif d[0] == "const" and d[1] not in seen:
            seen.add(d[1])
            body.append(f"{d[1]} = {d[2]}")
        elif d[0] == "class" and d[1] not in seen:
            seen.add(d[1])
            body.append(f"\n\nclass {d[1]}({d[2]}):\n    pass\n")
        elif d[0] == "func" and d[1] not in seen:
            seen.add(d[1])
            body.append(f"\n@njit({d[3]})" if d[3] else "\n@njit")
            body.append(_renamed(d[2], renames).rstrip())
    u = fr.get("ufunc")
    if u:
        lines.append("from numba import vectorize, guvectorize")
        parts = [repr(u["sigs"])] if u.get("sigs") else []
        if u["kind"] == "guvectorize":
            parts.append(repr(u["layout"]))
            if u.get("writable"):
                parts.append(f"writable_args={tuple(u['writable'])!r}")
        body.append(f"\n@{u['kind']}({', '.join(parts)})" if parts else f"\n@{u['kind']}")
    else:
        opts = [o for o in [repr(call["sigs"]) if call.get("sigs") else "", _options(call["options"])] if o]
        body.append(f"\n@njit({', '.join(opts)})" if opts else "\n@njit")
    body.append(_renamed(fr["iso_source"], renames).rstrip())
    return "\n".join(lines + [""] + body) + "\n"


def as_written_path(fr, upstream_numba, site_tests):
    """The upstream file of a recorded function (installed test helpers map to the mirror's)."""
    f = fr["file"]
    if site_tests and f.startswith(site_tests):
        alt = os.path.join(upstream_numba, "numba", "tests", f[len(site_tests):])
        if os.path.exists(alt):
            return alt
    return f


def replay(args, functions, upstream_numba, site_tests):
    base = os.path.join(args.work, "replay")
    shutil.rmtree(base, ignore_errors=True)
    jobs = []
    iso_harness = {}
    for k, fr in enumerate(functions):
        fid = f"f{k:05d}"
        fr["id"] = fid
        fr["as_written_file"] = as_written_path(fr, upstream_numba, site_tests)
        fr["results"] = {m: [] for m in MODES}
        fr["isolated_files"] = []
        for c, call in enumerate(fr["calls"]):
            jobs.append((fr, "as_written", c, fr["as_written_file"], fr["name"]))
            jobs.append((fr, "as_njit", c, fr["as_written_file"], fr["name"]))
            if fr["iso_source"] and call.get("explicit", fr["explicit_sigs"]) and not call.get("sigs"):
                iso_harness[(fr["id"], c)] = "explicit signature that the string spelling cannot express"
            elif fr["iso_source"]:
                text = isolated_file(fr, call)
                path = os.path.join(base, fid, f"isolated_{hashlib.sha1(text.encode()).hexdigest()[:8]}.py")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
                fr["isolated_files"].append(path)
                jobs.append((fr, "isolated", c, path, fr["iso_name"]))

    def one(job):
        fr, mode, c, file, func = job
        calldir = os.path.join(base, fr["id"], f"{mode}_{c}")
        return job, replay_call(args, file, func, fr["calls"][c], calldir, mode)

    with cf.ThreadPoolExecutor(args.jobs * 2) as ex:
        for (fr, mode, c, _, _), res in ex.map(one, jobs):
            fr["results"][mode].append((c, res))
    for fr in functions:
        for mode in MODES:
            rs = [r for _, r in sorted(fr["results"][mode], key=lambda x: x[0])]
            if mode == "isolated" and not fr["iso_source"]:
                rs = [("harness", f"isolation failed: {fr['iso_problem']}")] * len(fr["calls"])
            elif mode == "isolated":
                got = dict(fr["results"][mode])
                rs = [got[c] if c in got else ("harness", iso_harness[(fr["id"], c)]) for c in range(len(fr["calls"]))]
            fr["results"][mode] = rs
            real = [r for r in rs if r[0] != "harness"]
            bad = [r for r in real if r[0] != "ok"]
            fr[mode] = bad[0] if bad else ("ok", "") if real else rs[0] if rs else ("harness", "no replayable call")
    return jobs


# --------------------------------------------------------------------------------------------
# File and kernel load rates


def check_files(args, files):
    """`twinjit check` on each file: {path: {"ok", "functions", "first", "n_errors"}}."""

    def one(path):
        rc, out, err = run_twinjit(args, ["check", path], timeout=60)
        funcs = [l for l in out.splitlines() if re.match(r"^\S+ \(", l)]
        return path, {
            "ok": rc == 0,
            "functions": len(funcs),
            "first": None if rc == 0 else first_diag(err if rc is not None else "timeout"),
            "n_errors": sum(1 for l in err.splitlines() if l.startswith("error")),
        }

    with cf.ThreadPoolExecutor(args.jobs * 2) as ex:
        return dict(ex.map(one, files))


def _is_cuda_jit(dec, jit_names=()):
    f = dec.func if isinstance(dec, ast.Call) else dec
    if isinstance(f, ast.Name):  # `from numba.cuda import jit`
        return f.id in jit_names
    return isinstance(f, ast.Attribute) and f.attr == "jit" and isinstance(f.value, (ast.Name, ast.Attribute)) and (
        (isinstance(f.value, ast.Name) and f.value.id == "cuda") or (isinstance(f.value, ast.Attribute) and f.value.attr == "cuda")
    )


def extract_kernels(path, dest, context=True, where=None):
    """Each `@cuda.jit` function of a file (at any depth) into a file of its own, with the
    device functions and module-level constants it names. Returns the new files; `where`, a
    dict if given, gets each file's (kernel name, first line of its decorators and def).

    With `context` (the default since 2026-12-03), the way numba-cuda's tests write kernels is
    followed further: a kernel defined inside a test method takes the method's earlier
    assignments it names (`sig = "void(float32[:])"`, `shape = 10`, `arr = np.arange(5)`; not
    those that read `self`) and the functions defined there; a plain module-level `def` compiled
    as `cuda.jit(ARGS)(f)` becomes `@cuda.jit(ARGS) def f`; imports from numba's submodules keep
    their module (`from numba.cuda.random import xoroshiro128p_uniform_float32`); module-level
    assignments of expressions over imported names are kept like the numeric constants."""
    src = open(path, encoding="utf-8", errors="replace").read()
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return []
    lines = src.splitlines()
    jit_names = {al.asname or al.name for node in tree.body if isinstance(node, ast.ImportFrom)
                 and node.module == "numba.cuda" for al in node.names if al.name == "jit"}
    parent = {}
    for node in ast.walk(tree):
        for ch in ast.iter_child_nodes(node):
            parent[ch] = node

    def text(node, decorator=None):
        start = min([d.lineno for d in node.decorator_list] + [node.lineno])
        body = textwrap.dedent("\n".join(lines[start - 1 : node.end_lineno]))
        if decorator:
            body = decorator + "\n" + textwrap.dedent("\n".join(lines[node.lineno - 1 : node.end_lineno]))
        return body

    # name -> (def node, decorator override)
    jitted = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(_is_cuda_jit(d, jit_names) for d in node.decorator_list):
            jitted.setdefault(node.name, (node, None))
    module_defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    applied = {}  # `cuda.jit(ARGS)(f)` of a module-level plain def: f -> (def, decorator, call site)
    if context:
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and _is_cuda_jit(node.func, jit_names)
                    and len(node.args) == 1 and isinstance(node.args[0], ast.Name)
                    and node.args[0].id in module_defs and node.args[0].id not in jitted):
                fn = module_defs[node.args[0].id]
                if not fn.decorator_list:
                    deco = "@" + ast.get_source_segment(src, node.func)
                    applied.setdefault(fn.name, (fn, deco, node))
    imported_mods = set()
    imported = {}  # bound name -> import line
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module in ("math", "numpy"):
                src_mod = node.module
            elif node.module.split(".")[0] == "numba":
                src_mod = node.module if context else "numba"
            else:
                src_mod = None
            for al in node.names if src_mod else []:
                bound = al.asname or al.name
                imported[bound] = f"from {src_mod} import {al.name}" + (f" as {al.asname}" if al.asname else "")
                imported_mods.add(bound)
        elif isinstance(node, ast.Import):
            for al in node.names:
                if al.name in ("math", "numpy", "numba", "numba.cuda") or (context and al.name.startswith("numba.")):
                    bound = al.asname or al.name.split(".")[0]
                    imported[bound] = f"import {al.name}" + (f" as {al.asname}" if al.asname else "")
                    imported_mods.add(bound)
    base = {"np", "math", "cuda", "numpy", "numba"}

    def names_in(n):
        return {m.id for m in ast.walk(n) if isinstance(m, ast.Name)}

    def simple_value(v, known):
        # An expression over literals and known names (imports, earlier kept assignments).
        return names_in(v) <= known and not any(
            isinstance(m, (ast.Lambda, ast.ListComp, ast.GeneratorExp, ast.DictComp, ast.SetComp, ast.Await))
            for m in ast.walk(v))

    consts = {}
    known = set(imported_mods) | base
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                ast.literal_eval(node.value)
                ok = True
            except (ValueError, SyntaxError):
                ok = context and simple_value(node.value, known)
            if ok:
                consts[node.targets[0].id] = ast.get_source_segment(src, node)
                known.add(node.targets[0].id)

    def enclosing(node):
        p = parent.get(node)
        while p is not None and not isinstance(p, (ast.FunctionDef, ast.Module)):
            p = parent.get(p)
        return p if isinstance(p, ast.FunctionDef) else None

    def local_context(node):
        """The enclosing function's assignments and defs before `node`, by bound name."""
        fn = enclosing(node) if context else None
        out = {}
        if fn is None:
            return out
        def flat(body):
            # The statements in order, through `with` and `try` blocks (test code wraps examples
            # in `with captured_stdout():`), not into branches or nested functions.
            for st in body:
                if isinstance(st, ast.With):
                    yield from flat(st.body)
                elif isinstance(st, ast.Try):
                    yield from flat(st.body)
                else:
                    yield st

        for st in flat(fn.body):
            if st.lineno >= node.lineno:
                break
            one_line = "\n".join(lines[st.lineno - 1 : st.end_lineno]).strip()
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                if "self" not in names_in(st.value):
                    out[st.targets[0].id] = (one_line, st)
            elif isinstance(st, ast.FunctionDef) and st.name not in jitted:
                out[st.name] = (text(st), st)
            elif isinstance(st, ast.ImportFrom) and st.level == 0 and (st.module or "").split(".")[0] in (
                    "numba", "numpy", "math"):
                for al in st.names:
                    out[al.asname or al.name] = (
                        f"from {st.module} import {al.name}" + (f" as {al.asname}" if al.asname else ""), st)
        return out

    entries = [(name, node, deco) for name, (node, deco) in jitted.items()]
    entries += [(name, fn, deco) for name, (fn, deco, _) in applied.items()]
    out = []
    for k, (name, node, deco) in enumerate(entries):
        site = applied[name][2] if name in applied else node
        ctx = local_context(site)
        used = names_in(node) | (names_in(site) if site is not node else set())
        parts, order, todo = [], [], [name]
        while todo:  # transitive device-function callees
            n = todo.pop()
            if n in order:
                continue
            order.append(n)
            fnode = jitted[n][0] if n in jitted else node
            todo += [m for m in names_in(fnode) if m in jitted and m != n]
            used |= names_in(fnode)
        # Context assignments the kernel names, and what they name in turn.
        picked, todo = [], [u for u in used if u in ctx]
        while todo:
            n = todo.pop()
            if n in picked:
                continue
            picked.append(n)
            extra = names_in(ctx[n][1])
            used |= extra
            todo += [u for u in extra if u in ctx and u not in picked]
        header = ["import math", "import numpy as np", "from numba import cuda"]
        header += [imported[n] for n in sorted(used) if n in imported and imported[n] not in header]
        parts += [consts[c] for c in sorted(used) if c in consts and c not in ctx]
        parts += [ctx[n][0] for n in sorted(picked, key=lambda n: ctx[n][1].lineno)]
        parts += [text(jitted[n][0]) for n in reversed(order) if n in jitted and n != name]
        parts.append(text(node, deco))
        p = os.path.join(dest, f"{k:03d}_{name}.py")
        os.makedirs(dest, exist_ok=True)
        with open(p, "w") as f:
            f.write("\n".join(dict.fromkeys(header)) + "\n\n" + "\n\n\n".join(parts) + "\n")
        out.append(p)
        if where is not None:
            where[p] = (name, min([d.lineno for d in node.decorator_list] + [node.lineno]))
    return out


# --------------------------------------------------------------------------------------------
# Summary


def pct(a, b):
    return f"{a}/{b} ({100.0 * a / b:.1f}%)" if b else f"{a}/0"


def quoted_names(diags, n=30):
    """The backticked names most often refused (`np.ones`, `isinstance`, ...)."""
    c = collections.Counter()
    for d in diags:
        for q in set(re.findall(r"`([^`]+)`", d)):
            c[q] += 1
    return c.most_common(n)


def causes(diags, n=20):
    """[(normalised cause, count, example)] for a list of first-diagnostic lines."""
    c = collections.Counter()
    ex = {}
    for d in diags:
        k = normalize(d)
        c[k] += 1
        ex.setdefault(k, d)
    return [(k, v, ex[k]) for k, v in c.most_common(n)]


def cause_table(title, rows):
    out = [f"\n{title}\n", "| count | cause (normalised) | example |", "|---:|---|---|"]
    for k, v, e in rows:
        out.append(f"| {v} | {k.replace('|', '/')} | {e[:160].replace('|', '/')} |")
    return out


def summarize(res):
    L = [f"# twinjit on upstream Numba code\n",
         f"numba {res['commits']['numba'][:12]}, numba-cuda {res['commits']['numba_cuda'][:12]}, "
         f"recorded with numba {res.get('numba_version')}; {res['elapsed_s']:.0f}s.\n",
         "## Files (`twinjit check FILE`)\n", "| set | files that load | functions listed |", "|---|---:|---:|"]
    for k, v in res["files"].items():
        L.append(f"| {k} | {pct(sum(1 for x in v.values() if x['ok']), len(v))} | "
                 f"{sum(x['functions'] for x in v.values())} |")
    L.append("")
    h = res["host"]
    L += ["## Recorded host calls\n",
          f"Test modules recorded: {len(h['modules'])} ({', '.join(h['modules'])}); plus the "
          "documentation's .py files and .rst code blocks.\n",
          f"Functions recorded: {h['functions_seen']}; with at least one replayable call: "
          f"{h['functions_replayable']} ({h['calls_replayable']} calls); only harness calls "
          f"(not replayable): {h['functions_harness_only']}; object-mode functions: {h['objmode']}; "
          f"calls Numba itself refused to compile (not counted): {h['numba_refused']}.\n",
          "| mode | functions ok | calls ok | ok | wrong | runtime-error | compile-error | harness |",
          "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for mode in MODES:
        m = h[mode]
        fo = m["functions"]
        L.append(f"| {mode} | {pct(fo.get('ok', 0), h['functions_replayable'])} | "
                 f"{pct(m['calls'].get('ok', 0), h['calls_replayable'])} | "
                 + " | ".join(str(fo.get(k, 0)) for k in ("ok", "wrong", "runtime-error", "compile-error", "harness"))
                 + " |")
    L.append("\n(outcome columns count functions)")
    L += cause_table("### Harness: why calls could not be replayed (calls)", h["harness_causes"])
    for mode in MODES:
        L += cause_table(f"### {mode}: compile-error causes (functions)", h[mode]["compile_causes"])
        L += cause_table(f"### {mode}: runtime-error and wrong (functions)", h[mode]["other_causes"])
    L += ["\n### isolated: names most often refused (functions)\n",
          ", ".join(f"`{q}` {n}" for q, n in h["isolated"]["refused_names"])]
    L += ["\n### Per recorded unit (functions with replayable calls)\n",
          "| unit | functions | as written ok | as njit(pyfunc) ok | isolated ok |", "|---|---:|---:|---:|---:|"]
    for u, v in sorted(h["per_unit"].items()):
        L.append(f"| {u} | {v['functions']} | {v['as_written_ok']} | {v['as_njit_ok']} | {v['isolated_ok']} |")
    L += ["\n### Every wrong result\n", "| mode | function | detail |", "|---|---|---|"]
    for w in h["wrong"]:
        L.append(f"| {w['mode']} | {w['qualname']} ({os.path.basename(w['file'])}) | {w['detail'][:150].replace('|', '/')} |")
    k = res["kernels"]
    L += ["\n## CUDA kernels (load only: this twinjit has no `cuda` feature)\n",
          f"Files as written: {pct(k['files_ok'], k['files'])} load, listing {k['functions_listed']} functions.",
          f"Isolated `@cuda.jit` functions: {pct(k['isolated_ok'], k['isolated'])} load.\n"]
    for name, rows in res["file_causes"].items():
        L += cause_table(f"### `check` causes: {name} (files)", rows)
    L += cause_table("### Isolated kernels: causes (kernels)", k["isolated_causes"])
    L += ["\n### Isolated kernels: names most often refused\n",
          ", ".join(f"`{q}` {n}" for q, n in k["refused_names"])]
    return "\n".join(L) + "\n"


# --------------------------------------------------------------------------------------------


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "_record":
        return record_main(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--numba-mirror", required=True)
    ap.add_argument("--cuda-mirror", required=True)
    ap.add_argument("--twinjit", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--record", action="store_true", help="record Numba's calls (else reuse WORK/record)")
    ap.add_argument("--modules", default=str(DEFAULT_MODULES), help="N first of the priority list, or 'all'")
    ap.add_argument("--module-names", default="", help="comma-separated test modules to record instead (test_parfors)")
    ap.add_argument("--python", default=sys.executable, help="the Python with numba, for recording")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--plain-kernels", action="store_true",
                    help="extract kernels as before 2026-12-03 (no enclosing-method context, no cuda.jit(ARGS)(f))")
    args = ap.parse_args()
    try:
        import numpy  # noqa: F401
    except ImportError:
        sys.exit("upstream_rate.py needs numpy (run it with the Python that has numba)")
    t0 = time.time()
    args.work = os.path.abspath(args.work)
    args.twinjit = os.path.abspath(args.twinjit)
    up = os.path.join(args.work, "upstream")
    up_numba, up_cuda = os.path.join(up, "numba"), os.path.join(up, "numba-cuda")
    print("extracting upstream files ...", flush=True)
    c_numba, tests = extract(args.numba_mirror, NUMBA_TESTS, up_numba)
    _, docs_py = extract(args.numba_mirror, NUMBA_DOCS_PY, up_numba)
    _, rst = extract(args.numba_mirror, NUMBA_DOCS_RST, up_numba)
    c_cuda, cuda = extract(args.cuda_mirror, CUDA_TESTS, up_cuda)
    docs_py = [p for p in docs_py if p not in DOCS_SKIP]
    rst_files = extract_rst(up_numba, rst, os.path.join(up, "numba-docs-rst"))
    test_files = [p for p in tests if not p.endswith("__init__.py")]

    available = [p[len("numba/tests/"):-3].replace("/", ".") for p in test_files
                 if os.path.basename(p).startswith("test_")]
    if args.module_names:
        modules = [m for m in args.module_names.split(",") if m in available]
    elif args.modules == "all":
        modules = available
    else:
        modules = [m for m in MODULE_PRIORITY if m in available][: int(args.modules)]

    rec_dir = os.path.join(args.work, "record")
    if args.record or not os.path.isdir(rec_dir):
        print(f"recording {len(modules)} test modules + docs with {args.python} ...", flush=True)
        record(args, up_numba, docs_py, rst_files, modules)
    numba_version = subprocess.run([args.python, "-c", "import numba; print(numba.__version__)"],
                                   capture_output=True, text=True).stdout.strip()
    site_tests = subprocess.run([args.python, "-c", "import os, numba.tests as t; print(os.path.dirname(os.path.realpath(t.__file__)) + os.sep)"],
                                capture_output=True, text=True).stdout.strip()
    functions, logs, recorded_modules = [], {}, []
    seen = set()
    for f in sorted(os.listdir(rec_dir)):
        if not f.endswith(".pkl"):
            continue
        data = pickle.load(open(os.path.join(rec_dir, f), "rb"))
        unit = f[:-4].rsplit(".", 1)[0]
        logs.setdefault(unit, []).extend(data["log"])
        if unit not in ("docs_py", "docs_rst") and unit not in recorded_modules:
            recorded_modules.append(unit)
        for fr in data["functions"]:
            key = (fr["file"], fr["line"], fr["qualname"], fr.get("objmode"))
            if key in seen:  # a helper shared by modules: recorded in the first
                continue
            seen.add(key)
            fr["unit"] = unit
            functions.append(fr)

    print(f"replaying {sum(len(f['calls']) for f in functions)} calls of {len(functions)} functions ...", flush=True)
    replay(args, functions, up_numba, site_tests)

    print("checking files ...", flush=True)
    rst_all = [p for fs in rst_files.values() for p in fs]
    file_sets = {
        "numba tests": [os.path.join(up_numba, p) for p in test_files],
        "numba docs (.py and .rst blocks)": [os.path.join(up_numba, p) for p in docs_py] + rst_all,
        "numba-cuda kernel tests": [os.path.join(up_cuda, p) for p in cuda],
    }
    checked = {k: check_files(args, v) for k, v in file_sets.items()}
    kdir = os.path.join(args.work, "isolated_kernels")
    shutil.rmtree(kdir, ignore_errors=True)
    kfiles = []
    for p in cuda:
        kfiles += extract_kernels(os.path.join(up_cuda, p), os.path.join(kdir, p[:-3].replace("/", "_")),
                                  context=not args.plain_kernels)
    kchecked = check_files(args, kfiles)

    # ---- tally
    rep = [f for f in functions if f["calls"]]
    host = {
        "modules": recorded_modules,
        "functions_seen": len(functions),
        "functions_replayable": len(rep),
        "calls_replayable": sum(len(f["calls"]) for f in rep),
        "functions_harness_only": sum(1 for f in functions if not f["calls"] and f["harness"]),
        "objmode": sum(1 for f in functions if f["objmode"]),
        "numba_refused": sum(f["refused"] for f in functions),
        "harness_causes": causes([h for f in functions for h in f["harness"]]),
        "per_unit": {},
        "wrong": [
            {"mode": mode, "qualname": f["qualname"], "file": f["file"], "detail": f[mode][1],
             "isolated_files": f.get("isolated_files")}
            for f in rep for mode in MODES if f[mode][0] == "wrong"
        ],
    }
    for f in rep:
        u = host["per_unit"].setdefault(
            f["unit"], {"functions": 0, "as_written_ok": 0, "as_njit_ok": 0, "isolated_ok": 0}
        )
        u["functions"] += 1
        u["as_written_ok"] += f["as_written"][0] == "ok"
        u["as_njit_ok"] += f["as_njit"][0] == "ok"
        u["isolated_ok"] += f["isolated"][0] == "ok"
    for mode in MODES:
        fo = collections.Counter(f[mode][0] for f in rep)
        co = collections.Counter(r[0] for f in rep for r in f["results"][mode])
        host[mode] = {
            "functions": dict(fo),
            "calls": dict(co),
            "compile_causes": causes([f[mode][1] for f in rep if f[mode][0] == "compile-error"]),
            "refused_names": quoted_names([f[mode][1] for f in rep if f[mode][0] == "compile-error"]),
            "other_causes": causes([f"{f[mode][0]}: {f[mode][1]}" for f in rep if f[mode][0] in ("wrong", "runtime-error", "harness")]),
        }
    kernels = {
        "files": len(checked["numba-cuda kernel tests"]),
        "files_ok": sum(1 for x in checked["numba-cuda kernel tests"].values() if x["ok"]),
        "functions_listed": sum(x["functions"] for x in checked["numba-cuda kernel tests"].values()),
        "isolated": len(kchecked),
        "isolated_ok": sum(1 for x in kchecked.values() if x["ok"]),
        "isolated_causes": causes([x["first"] for x in kchecked.values() if not x["ok"]]),
        "refused_names": quoted_names([x["first"] for x in kchecked.values() if not x["ok"]]),
    }
    res = {
        "commits": {"numba": c_numba, "numba_cuda": c_cuda},
        "numba_version": numba_version,
        "elapsed_s": time.time() - t0,
        "files": {k: {os.path.relpath(p, up): v for p, v in d.items()} for k, d in checked.items()},
        "file_causes": {k: causes([x["first"] for x in d.values() if not x["ok"]]) for k, d in checked.items()},
        "host": host,
        "kernels": kernels,
        "kernel_files": {os.path.relpath(p, kdir): v for p, v in kchecked.items()},
        "record_logs": logs,
        "functions": [
            {k: f.get(k) for k in ("id", "file", "line", "qualname", "name", "as_written_file", "isolated_files",
                                   "options", "objmode", "explicit_sigs", "harness", "refused", "iso_problem")}
            | {"calls": len(f["calls"]), "as_written": f.get("as_written"), "as_njit": f.get("as_njit"),
               "isolated": f.get("isolated"),
               "results": f.get("results")}
            for f in functions
        ],
    }
    with open(os.path.join(args.work, "results.json"), "w") as f:
        json.dump(res, f, indent=1, default=str)
    text = summarize(res)
    with open(os.path.join(args.work, "summary.md"), "w") as f:
        f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
