#!/usr/bin/env python3
"""How many of numba-cuda's own test kernels twinjit compiles and runs with numba-cuda's result.

Usage (with a Python that has numba-cuda; on the GPU machine its numba-cuda, here the venv's):

    python scripts/cuda_kernel_rate.py record --work WORK [--sim] [--jobs 8] [--budget 40]
        [--modules test_a,test_b]
    python scripts/cuda_kernel_rate.py replay --work WORK --twinjit BIN --target cuda|cuda-sim|interp
        [--jobs 8] [--label TEXT]

Nothing upstream is part of this repository: the test modules are the ones installed with the
numba-cuda package (`numba.cuda.tests.cudapy.test_*` and `numba.cuda.tests.doc_examples.test_*`),
run where the script runs.

record -- each test module runs under unittest in a subprocess of its own, cut off after
  `--budget` seconds (later tests are not started; the process is killed 30 s after that). Before
  it runs, every kernel launch is wrapped: `_LaunchConfiguration.__call__` of the compiled
  dispatcher (a GPU), or `FakeCUDAKernel.__call__` of numba-cuda's simulator (`--sim`, which
  sets NUMBA_ENABLE_CUDASIM=1). Per kernel (file, first line, name) up to 3 launches are kept:
  grid, block, dynamic shared memory, each argument bound to its parameter name (a copy of
  every array, host or device, before the launch) and every array after the launch (after
  `cuda.synchronize()`). Launches whose arguments `twinjit run` cannot express (records,
  random states, *args, arrays over 1 MiB in all, aliased arrays, ...) are counted as
  "harness" with the reason. Kernels of numba-cuda's own library are not kept. Tests skipped
  on the simulator (`skip_on_cudasim`) record nothing there, so `--sim` measures a subset.

replay -- each kernel is taken from its test file by `upstream_rate.extract_kernels` (the
  kernel, the device functions and constants it names, the test method's earlier assignments
  it reads), the same isolation as upstream_rate.py's "isolated kernels" count, and each
  recorded launch is run with `twinjit run FILE KERNEL --target T --launch GRID,BLOCK --arg
  ... --out DIR`. Every array after the launch is compared with numba-cuda's: integers and
  bools exactly, floats equal (NaN where NaN), or within a relative 1e-5 (float32, complex64),
  1e-2 (float16) or 1e-9 (float64, complex128), counted as `close`. A kernel is ok when all its
  launches are. WORK/kernel-summary-TARGET.md gets the counts and the failures by cause.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures as cf
import enum
import json
import os
import pickle
import shutil
import subprocess
import sys
import time
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import upstream_rate as ur  # noqa: E402

CALLS_PER_KERNEL = 3
MAX_BYTES = 1 << 20
DTYPES = ur.REPLAY_DTYPES | {"float16"}
TOLERANCE = {"float16": 1e-2, "float32": 1e-5, "complex64": 1e-5, "float64": 1e-9, "complex128": 1e-9}
TIMEOUT_S = 60


def test_modules():
    import importlib.util

    out = []
    for pkg in ("numba.cuda.tests.cudapy", "numba.cuda.tests.doc_examples"):
        spec = importlib.util.find_spec(pkg)
        d = list(spec.submodule_search_locations)[0]
        for f in sorted(os.listdir(d)):
            if f.startswith("test_") and f.endswith(".py"):
                out.append(f"{pkg}.{f[:-3]}")
    return out


# --------------------------------------------------------------------------------------------
# Recording (in the subprocess)


def type_names(py):
    """What `_deps` leaves out of the kernel's globals and closure variables: a scalar type (a
    numba type such as `types.int32`, a NumPy scalar class or dtype), renamed so that
    `dtype=ty` in `cuda.local.array(n, dtype=ty)` reads `numba.int32`; a captured device array,
    as a constant array of its contents at launch."""
    import numpy as np
    from numba import cuda

    code = py.__code__
    env = {n: py.__globals__[n] for n in ur._code_names(code) if n in py.__globals__}
    for n, c in zip(code.co_freevars, py.__closure__ or ()):
        if _has_contents(c):
            env[n] = c.cell_contents
    out = []
    for n, v in sorted(env.items(), key=lambda kv: kv[0]):
        name = None
        try:
            if (isinstance(v, type) and issubclass(v, np.generic)) or isinstance(v, np.dtype):
                name = np.dtype(v).name
            elif type(v).__module__.startswith("numba") and (hasattr(v, "bitwidth") or str(v) == "bool"):
                name = str(v)
        except TypeError:
            name = None
        if name in DTYPES and name != n:
            out += [("import", "import numba"), ("rename", n, f"numba.{'boolean' if name == 'bool' else name}")]
        elif (isinstance(v, types.FunctionType) and (v.__module__ or "").startswith("numba.")
              and not (v.__module__ or "").startswith("numba.cuda.tests")):
            # A function imported from numba's modules (`from numba.cuda.misc.special import
            # literal_unroll`), imported the same way.
            out.append(("import", f"from {v.__module__} import {v.__name__}" + (f" as {n}" if n != v.__name__ else "")))
        elif isinstance(v, type) and hasattr(v, "aliases") and getattr(cuda, getattr(v, "__name__", ""), None) is v:
            # One of numba-cuda's vector types (`cuda.float32x4`, or the simulator's class of
            # that name), as the kernel's `cuda` module names it.
            if n != v.__name__:
                out.append(("rename", n, f"cuda.{v.__name__}"))
            else:
                out.append(("import", f"from numba.cuda import {n}"))
        elif hasattr(v, "copy_to_host") and hasattr(v, "shape"):
            # A device array the kernel captures (numba-cuda reads it by reference at launch):
            # its contents now, as a module-level array.
            try:
                r = ur._const_repr(v.copy_to_host())
            except Exception:  # noqa: BLE001
                r = None
            if r is not None:
                out.append(("const", n, r))
    return out


def _has_contents(cell):
    try:
        cell.cell_contents
        return True
    except ValueError:
        return False


def record_main(argv):
    ap = argparse.ArgumentParser(prog="cuda_kernel_rate.py _record")
    ap.add_argument("--module", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=40)
    a = ap.parse_args(argv)
    import importlib
    import inspect
    import unittest

    import numpy as np

    if not hasattr(np, "row_stack"):
        # numba 0.68.0's typing registry still names np.row_stack, which NumPy 2.5 removed.
        np.row_stack = np.vstack
    from numba import cuda

    sim = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
    hints = (cuda.In, cuda.Out, cuda.InOut)
    lib = os.path.dirname(os.path.realpath(cuda.__file__)) + os.sep
    tests = os.path.join(lib, "tests") + os.sep
    kernels = {}
    state = {"depth": 0}

    def kernel_record(py):
        code = py.__code__
        # A kernel made by a factory (`def template(op): @cuda.jit def foo(a, b): ... op(...)`)
        # is a new kernel per closure: the closure's values are part of the key.
        cells = tuple(id(c.cell_contents) for c in py.__closure__ or () if _has_contents(c))
        key = (os.path.realpath(code.co_filename), code.co_firstlineno, py.__qualname__, cells)
        r = kernels.get(key)
        if r is None:
            try:
                sig = inspect.signature(py)
            except (TypeError, ValueError):
                sig = None
            r = kernels[key] = {
                "file": key[0], "line": key[1], "qualname": key[2], "name": py.__name__,
                "closure": len([k for k in kernels if k[:3] == key[:3]]),
                "skip": key[0].startswith(lib) and not key[0].startswith(tests),
                "launches": [], "harness": [], "_sig": sig,
            }
            # The kernel as its dispatcher saw it (source, and what its globals and closure held),
            # for kernels the static extraction does not find (a plain def compiled through a
            # variable: `cuda.jit(sig)(cas_func)`).
            try:
                r["iso_name"], r["iso_source"] = ur._func_source(py)
                deps = []
                ur._deps(py, dispatcher_type, set(), deps, type_names)
                r["deps"] = type_names(py) + deps
            except Exception as e:  # noqa: BLE001
                r["iso_name"], r["iso_source"], r["deps"] = None, f"{e.__class__.__name__}", []
        return r

    def host(v):
        """A NumPy copy of an array argument (host or device), or None."""
        if isinstance(v, hints):
            v = v.value
        if isinstance(v, np.ndarray):
            return v.copy(order="K")
        if hasattr(v, "copy_to_host") and hasattr(v, "shape"):
            try:
                return v.copy_to_host()
            except Exception:  # noqa: BLE001
                return None
        return None

    def problem_of(v):
        h = host(v)
        if h is not None:
            if h.dtype.name not in DTYPES or not h.dtype.isnative:
                return f"array of {h.dtype}"
            if not 1 <= h.ndim <= ur.MAX_NDIM:
                return f"{h.ndim}-d array"
            return None
        if hasattr(v, "shape") and not isinstance(v, np.generic):
            return type(v).__name__
        if isinstance(v, np.float16):
            return None
        if isinstance(v, enum.Enum):
            return "enum member"
        return ur._replay_problem(v)

    def launch(self_, base, py, grid, block, shared, args, argtypes=None):
        if state["depth"]:
            return base()
        r = kernel_record(py)
        if r["skip"] or len(r["launches"]) >= CALLS_PER_KERNEL:
            return base()
        problem, bound = None, None
        sig = r["_sig"]
        if getattr(self_, "extensions", None) or getattr(getattr(self_, "dispatcher", None), "extensions", None):
            problem = "kernel with argument extensions"
        elif sig is None:
            problem = "no signature"
        elif any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in sig.parameters.values()):
            problem = "*args parameter"
        else:
            try:
                bound = dict(sig.bind(*args).arguments)
            except TypeError:
                problem = "arguments do not bind"
        arrays = {}
        if bound is not None:
            for n, v in bound.items():
                problem = problem_of(v)
                if problem:
                    problem = f"argument not replayable ({problem})"
                    break
                h = host(v)
                if h is not None:
                    arrays[n] = h
        if problem is None and sum(x.nbytes for x in arrays.values()) > MAX_BYTES:
            problem = "arrays over 1 MiB"
        if problem is None:
            vals = [v for n, v in bound.items() if n in arrays]
            for i, x in enumerate(vals):
                for y in vals[i + 1:]:
                    if isinstance(x, np.ndarray) and isinstance(y, np.ndarray) and np.shares_memory(x, y):
                        problem = "aliased arrays"
                    elif x is y:
                        problem = "aliased arrays"
        if problem:
            if len(r["harness"]) < CALLS_PER_KERNEL:
                r["harness"].append(problem)
            return base()
        state["depth"] += 1
        try:
            result = base()
            if not sim:
                cuda.synchronize()
            # `cuda.In(a)` is not copied back: numba-cuda leaves `a` as it was.
            after = {n: host(bound[n]) for n in arrays if not isinstance(bound[n], cuda.In)}
        except BaseException as e:  # noqa: BLE001
            r["harness"].append(f"launch raised {e.__class__.__name__}")
            raise
        finally:
            state["depth"] -= 1
        scalars = {n: v for n, v in bound.items() if n not in arrays}
        # A kernel compiled for an explicit signature (`cuda.jit("void(int32[:], uint32)")`)
        # converts a Python int to the signature's type: the replay passes that type.
        stypes = {}
        if argtypes is not None and len(argtypes) == len(bound):
            for n, t in zip(bound, argtypes):
                if n in scalars and str(t) in DTYPES and not isinstance(scalars[n], (bool, np.bool_)):
                    stypes[n] = str(t)
        r["launches"].append({"grid": tuple(grid), "block": tuple(block), "shared": int(shared or 0),
                              "arrays": arrays, "scalars": scalars, "scalar_types": stypes, "after": after})
        return result

    def dim3(d):
        d = tuple(d) if isinstance(d, (tuple, list)) else (d,)
        return tuple(int(x) for x in d) + (1,) * (3 - len(d))

    if sim:
        from numba.cuda.simulator import kernel as simk

        base_call = simk.FakeCUDAKernel.__call__

        def sim_call(self, *args):
            if self._device or simk._kernel_context or self.grid_dim is None:
                return base_call(self, *args)
            return launch(self, lambda: base_call(self, *args), self.fn, dim3(self.grid_dim),
                          dim3(self.block_dim), self.dynshared_size, args)

        simk.FakeCUDAKernel.__call__ = sim_call
        dispatcher_type = simk.FakeCUDAKernel
    else:
        from numba.cuda import dispatcher as dmod

        base_call = dmod._LaunchConfiguration.__call__

        def gpu_call(self, *args):
            try:
                py = self.dispatcher.py_func
            except AttributeError:
                return base_call(self, *args)
            argtypes = None
            try:
                d = self.dispatcher
                if not d._can_compile and len(d.overloads) == 1:
                    argtypes = tuple(next(iter(d.overloads)))
            except Exception:  # noqa: BLE001
                argtypes = None
            return launch(self, lambda: base_call(self, *args), py, dim3(self.griddim), dim3(self.blockdim),
                          self.sharedmem, args, argtypes)

        dmod._LaunchConfiguration.__call__ = gpu_call
        dispatcher_type = dmod.CUDADispatcher

    log = []

    def dump(*_):
        data = []
        for r in kernels.values():
            if r["skip"]:
                continue
            r = dict((k, v) for k, v in r.items() if k != "_sig")
            try:
                pickle.dumps(r)
            except Exception as e:  # noqa: BLE001 - an argument of a test's own class
                r["launches"], r["deps"] = [], []
                r["harness"] = [f"recording not picklable ({e.__class__.__name__})"]
            data.append(r)
        ur.write_pickle(a.out, {"kernels": data, "log": log})

    ur.dump_on_sigterm(log, dump)
    Budgeted = ur.budgeted_result(time.time(), a.budget, log)

    try:
        mod = importlib.import_module(a.module)
        suite = unittest.defaultTestLoader.loadTestsFromModule(mod)
        res = unittest.TextTestRunner(stream=sys.stderr, verbosity=0, resultclass=Budgeted).run(suite)
        log.append(f"{a.module}: ran {res.testsRun} tests, {len(res.failures)} failures, "
                   f"{len(res.errors)} errors, {len(res.skipped)} skipped")
    except BaseException as e:  # noqa: BLE001 - a broken module is a result too
        log.append(f"{a.module}: import/run failed: {e.__class__.__name__}: {str(e)[:200]}")
    dump()
    return 0


def record(a):
    rec = os.path.join(a.work, "record")
    shutil.rmtree(rec, ignore_errors=True)
    os.makedirs(rec)
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    if a.sim:
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    mods = a.modules.split(",") if a.modules else None
    if mods is None:
        probe = subprocess.run([a.python, "-c", "import sys; sys.path.insert(0, %r); import cuda_kernel_rate as c; "
                                "print('\\n'.join(c.test_modules()))" % os.path.dirname(os.path.abspath(__file__))],
                               capture_output=True, text=True, env=env)
        mods = probe.stdout.split()
        if not mods:
            sys.exit(f"no test modules found: {probe.stderr[-2000:]}")
    me = os.path.abspath(__file__)

    def one(m):
        t = time.time()
        out = os.path.join(rec, m + ".pkl")
        cmd = [a.python, me, "_record", "--module", m, "--out", out, "--budget", str(a.budget)]
        rc = ur.run_limited(cmd, os.path.join(rec, m + ".log"), env, rec, a.budget + 30)
        print(f"  recorded {m:60s} {time.time() - t:6.1f}s rc={rc}", flush=True)

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        list(ex.map(one, mods))


# --------------------------------------------------------------------------------------------
# Replay


def same(want, got):
    """(matches, exact)"""
    import numpy as np

    if got.shape != want.shape or got.dtype != want.dtype:
        return False, False
    if want.dtype.kind in "biu":
        ok = bool(np.array_equal(want, got))
        return ok, ok
    w, g = want.astype(np.complex128 if want.dtype.kind == "c" else np.float64), got.astype(
        np.complex128 if want.dtype.kind == "c" else np.float64)
    nan_w, nan_g = np.isnan(w), np.isnan(g)
    if not np.array_equal(nan_w, nan_g):
        return False, False
    w, g = np.where(nan_w, 0, w), np.where(nan_g, 0, g)
    if np.array_equal(w, g):
        return True, True
    tol = TOLERANCE.get(want.dtype.name, 1e-9)
    eq = w == g  # infinities of the same sign included
    with np.errstate(invalid="ignore", over="ignore"):
        near = np.abs(w - g) <= tol * np.maximum(np.abs(w), np.abs(g))
    return bool(np.all(eq | near)), False


def live_file(k):
    """The kernel's file from what its dispatcher saw when it launched (upstream_rate's
    isolated host files, re-decorated for CUDA: callees as device functions)."""
    lines = ["import math", "import numpy as np", "from numba import cuda"]
    renames = {d[1]: d[2] for d in k["deps"] if d[0] == "rename"}
    body, seen = [], set()
    for d in k["deps"]:
        if d[0] == "import" and d[1] not in lines and d[1] != "import numba.cuda as cuda":
            lines.append(d[1])
        elif d[0] == "const" and d[1] not in seen:
            seen.add(d[1])
            body.append(f"{d[1]} = {d[2]}")
        elif d[0] == "func" and d[1] not in seen:
            seen.add(d[1])
            body.append("\n@cuda.jit(device=True)")
            body.append(ur._renamed(d[2], renames).rstrip())
    body.append("\n@cuda.jit")
    body.append(ur._renamed(k["iso_source"], renames).rstrip())
    return "\n".join(lines + [""] + body) + "\n"


def scalar_arg(v):
    import numpy as np

    if isinstance(v, np.float16):
        return f"float16:{float(v)!r}"
    return ur.scalar_arg(v)


def replay_launch(a, file, name, call, calldir):
    import numpy as np

    shutil.rmtree(calldir, ignore_errors=True)
    os.makedirs(calldir)
    g, b = call["grid"], call["block"]
    cmd = [a.twinjit, "run", file, name, "--target", a.target, "--cache", "off",
           "--launch", f"({g[0]},{g[1]},{g[2]}),({b[0]},{b[1]},{b[2]})"]
    if call["shared"]:
        cmd += ["--shared-mem", str(call["shared"])]
    for n, v in call["arrays"].items():
        path = os.path.join(calldir, f"in_{n}.npy")
        np.save(path, v)
        cmd += ["--arg", f"{n}={path}"]
    for n, v in call["scalars"].items():
        t = call.get("scalar_types", {}).get(n)
        if t is not None:
            # As numba-cuda converts the argument: an int wraps to the signature's width
            # (4294967295 to int32 is -1).
            try:
                if isinstance(v, (int, np.integer)) and np.dtype(t).kind in "iu":
                    v = np.array(int(v) & 0xFFFFFFFFFFFFFFFF, dtype=np.uint64).astype(t)[()]
                else:
                    v = np.dtype(t).type(v)
            except (OverflowError, TypeError, ValueError):
                pass
        cmd += ["--arg", f"{n}={scalar_arg(v)}"]
    outdir = os.path.join(calldir, "out")
    cmd += ["--out", outdir]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S,
                           env=dict(os.environ, TWINJIT_CACHE_DIR=os.path.join(a.work, "twinjit-cache")))
    except subprocess.TimeoutExpired:
        return "runtime-error", "timeout", False
    if p.returncode != 0:
        d = ur.first_diag(p.stderr)
        return ("runtime-error" if ur.RUNTIME.match(d) or "CUDA" in d or "launch" in d else "compile-error"), d, False
    exact = True
    for n, want in call["after"].items():
        path = os.path.join(outdir, f"{n}.npy")
        if not os.path.exists(path):
            return "wrong", f"array `{n}` not written back", False
        ok, ex = same(want, np.load(path))
        if not ok:
            return "wrong", f"array `{n}` differs from numba-cuda's", False
        exact &= ex
    return "ok", "", exact


def local_path(path):
    """The test file here: recordings made on another machine name its install's paths."""
    if os.path.exists(path):
        return path
    marker = os.sep + os.path.join("numba", "cuda", "tests") + os.sep
    if marker not in path:
        return None
    import importlib.util

    spec = importlib.util.find_spec("numba.cuda.tests")
    alt = os.path.join(list(spec.submodule_search_locations)[0], path.split(marker, 1)[1])
    return alt if os.path.exists(alt) else None


def replay(a):
    rec = os.path.join(a.work, "record")
    kernels, logs = [], []
    for f in sorted(os.listdir(rec)):
        if f.endswith(".pkl"):
            d = pickle.load(open(os.path.join(rec, f), "rb"))
            for k in d["kernels"]:
                k["module"] = f[:-4]
            kernels += d["kernels"]
            logs += d["log"]
    iso = os.path.join(a.work, "isolated")
    shutil.rmtree(iso, ignore_errors=True)
    where, files = {}, {}
    for path in sorted({k["file"] for k in kernels}):
        local = local_path(path)
        if local is None:
            continue
        dest = os.path.join(iso, os.path.basename(path)[:-3])
        for p in ur.extract_kernels(local, dest, where=where):
            name, line = where[p]
            files[(path, name, line)] = p
    runs = os.path.join(a.work, "runs-" + a.target)
    shutil.rmtree(runs, ignore_errors=True)

    def one(k):
        k = dict(k)
        f = files.get((k["file"], k["name"], k["line"]))
        res = []
        if not k["launches"]:
            k["outcome"], k["detail"] = "harness", (k["harness"] or ["no launch"])[0]
            return k
        live = None
        if k.get("iso_name"):
            live = os.path.join(iso, "live", f"{k['module']}.{k['line']}.{k['name']}.{k.get('closure', 0)}.py")
            os.makedirs(os.path.dirname(live), exist_ok=True)
            with open(live, "w") as fh:
                fh.write(live_file(k))

        def run_all(f, name):
            return [replay_launch(a, f, name, call, os.path.join(runs, f"{k['module']}.{k['line']}.{k['name']}.{k.get('closure', 0)}.{i}"))
                    for i, call in enumerate(k["launches"])]

        if f is not None:
            res = run_all(f, k["name"])
        # The static extraction misses what a test method builds at run time (a captured device
        # array, an enum class, a device function made by `cuda.jit(device=True)(f)`): where its
        # file does not compile, the kernel as its dispatcher saw it is tried too.
        if live is not None and (f is None or any(r[0] == "compile-error" for r in res)):
            live_res = run_all(live, k["iso_name"])
            if f is None or all(r[0] != "compile-error" for r in live_res):
                f, res, k["live"] = live, live_res, True
        if f is None:
            k["outcome"], k["detail"] = "not-extracted", "kernel not found by the extraction"
            return k
        k["isolated"] = f
        bad = [r for r in res if r[0] != "ok"]
        k["outcome"], k["detail"] = (bad[0][0], bad[0][1]) if bad else ("ok", "")
        k["exact"] = all(r[2] for r in res)
        return k

    t0 = time.time()
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        done = list(ex.map(one, kernels))
    for k in done:
        k.pop("launches", None)
        k.pop("deps", None)
    with open(os.path.join(a.work, f"kernel-results-{a.target}.json"), "w") as f:
        json.dump({"kernels": done, "log": logs}, f, indent=1, default=str)
    text = summarize(a, done, logs, time.time() - t0)
    with open(os.path.join(a.work, f"kernel-summary-{a.target}.md"), "w") as f:
        f.write(text)
    print(text)


def summarize(a, done, logs, secs):
    out = [f"# numba-cuda's test kernels through twinjit (`--target {a.target}`){' -- ' + a.label if a.label else ''}", ""]
    mods = sorted({k["module"] for k in done})
    ran = [m for m in logs if ": ran " in m]
    tests = sum(int(m.split(": ran ")[1].split()[0]) for m in ran)
    out.append(f"Test modules: {len(mods)} with kernels ({len(ran)} ran, {tests} tests); replay {secs:.0f}s.")
    out.append("")
    cnt = collections.Counter(k["outcome"] for k in done)
    launched = [k for k in done if k["outcome"] not in ("harness",)]
    ok = cnt["ok"]
    exact = sum(1 for k in done if k["outcome"] == "ok" and k.get("exact"))
    out.append("| kernels launched by the tests | replayable | ok (exact / close) | wrong | runtime-error | "
               "compile-error | not extracted | harness only |")
    out.append("|---:|---:|---:|---:|---:|---:|---:|---:|")
    out.append(f"| {len(done)} | {len(launched)} | {ur.pct(ok, len(launched))} ({exact} / {ok - exact}) | "
               f"{cnt['wrong']} | {cnt['runtime-error']} | {cnt['compile-error']} | {cnt['not-extracted']} | "
               f"{cnt['harness']} |")
    live = sum(1 for k in done if k.get("live"))
    out.append(f"{live} of the replayed kernels were taken from what their dispatcher saw (source, globals, "
               "closure): the static extraction did not find them or its file did not compile.")
    out.append("")
    for title, kind in (("Compile errors", "compile-error"), ("Runtime errors", "runtime-error"),
                        ("Wrong results", "wrong"), ("Harness: not replayable", "harness")):
        rows = collections.Counter(ur.normalize(k["detail"]) for k in done if k["outcome"] == kind)
        if not rows:
            continue
        out += [f"## {title}", "", "| count | cause (normalised) | example |", "|---:|---|---|"]
        for cause, n in rows.most_common(25):
            ex = next(f"{k['module'].split('.')[-1]}:{k['name']}" for k in done
                      if k["outcome"] == kind and ur.normalize(k["detail"]) == cause)
            out.append(f"| {n} | {cause[:150].replace('|', '/')} | {ex} |")
        out.append("")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "_record":
        return record_main(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["record", "replay"])
    ap.add_argument("--work", required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--sim", action="store_true", help="record under numba-cuda's simulator")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--budget", type=float, default=40)
    ap.add_argument("--modules", default="")
    ap.add_argument("--twinjit")
    ap.add_argument("--target", default="cuda")
    ap.add_argument("--label", default="")
    a = ap.parse_args()
    a.work = os.path.abspath(a.work)
    os.makedirs(a.work, exist_ok=True)
    if a.command == "record":
        record(a)
    else:
        if not a.twinjit:
            sys.exit("replay needs --twinjit")
        a.twinjit = os.path.abspath(a.twinjit)
        replay(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
