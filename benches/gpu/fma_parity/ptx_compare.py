"""Compares the floating-point instructions of numba-cuda's PTX and twinjit's for every kernel
the kernel corpus launches (tests/kernels_cuda/*.py `# check:` lines, argument types from the
check's arguments), without a GPU: numba-cuda's `cuda.compile_ptx` needs only NVVM on disk
(`pip install nvidia-nvvm`). For each kernel it counts `fma add sub mul neg` per float width in
both PTX texts; equal counts mean the two compilers fused the same products (issue 17 item 6).

    .venv/bin/python benches/gpu/fma_parity/ptx_compare.py target/release/twinjit [FILE.py ...]
"""
import ast
import collections
import glob
import math
import os
import re
import subprocess
import sys

import numpy as np

if not hasattr(np, "row_stack"):
    # numba-cuda's typing registry still names np.row_stack, which NumPy 2.5 removed.
    np.row_stack = np.vstack
from numba import cuda, typeof, types  # noqa: E402

OPS = re.compile(r"^\s+(fma\.rn|mul|add|sub|neg)(?:\.rn)?\.(f32|f64)\b", re.M)


def counts(ptx):
    return collections.Counter(f"{op.replace('.rn', '')}.{w}" for op, w in OPS.findall(ptx))


def twinjit_type(t):
    if isinstance(t, types.Array):
        dims = ", ".join([":"] * t.ndim)
        if t.layout == "C":
            dims = ", ".join([":"] * (t.ndim - 1) + ["::1"])
        return f"{t.dtype}[{dims}]"
    if isinstance(t, types.UniTuple):
        return "UniTuple(%s, %d)" % (twinjit_type(t.dtype), t.count)
    return str(t)


def launches(path):
    src = open(path).read()
    for line in src.splitlines():
        if "# check:" not in line:
            continue
        call = line.split("# check:", 1)[1].split("->")[0].strip()
        try:
            node = ast.parse(call, mode="eval").body
            name = node.func.value.id
            args = [eval(ast.unparse(a), {"np": np, "math": math}) for a in node.args]
        except Exception:
            continue
        yield name, args


def main():
    binary = sys.argv[1]
    files = sys.argv[2:] or sorted(glob.glob("tests/kernels_cuda/*.py"))
    seen = set()
    same = differ = 0
    skipped = collections.Counter()
    for path in files:
        if path.endswith("verify_numba_cudasim.py"):
            continue
        modname = os.path.splitext(os.path.basename(path))[0]
        import importlib.util

        spec = importlib.util.spec_from_file_location(modname, path)
        mod = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(mod)
        except Exception:
            continue
        for name, args in launches(path):
            try:
                sig = tuple(typeof(a) for a in args)
            except Exception:
                skipped["an argument numba cannot type"] += 1
                continue
            key = (path, name, sig)
            if key in seen:
                continue
            seen.add(key)
            k = getattr(mod, name, None)
            py = getattr(k, "py_func", None)
            if py is None:
                skipped["not a @cuda.jit kernel (ufunc, gufunc)"] += 1
                continue
            try:
                nb, _ = cuda.compile_ptx(py, sig, cc=(9, 0))
            except Exception as e:
                skipped["compile_ptx: " + type(e).__name__] += 1
                continue
            tsig = "void(%s)" % ", ".join(twinjit_type(t) for t in sig)
            r = subprocess.run([binary, "ptx", path, name, "--sig", tsig], capture_output=True, text=True)
            if r.returncode != 0:
                skipped["twinjit ptx: " + (r.stderr.strip().splitlines() or ["?"])[0][:60]] += 1
                continue
            a, b = counts(nb), counts(r.stdout)
            fused = lambda c: {k: v for k, v in c.items() if k.startswith(("fma", "add", "sub"))}  # noqa: E731
            if fused(a) == fused(b):
                same += 1
            else:
                differ += 1
                print(f"differ {path}:{name}{tsig[4:]}: numba-cuda {dict(sorted(a.items()))} twinjit {dict(sorted(b.items()))}")
    print(f"{same} kernels with the same fma/add/sub counts, {differ} differ, {sum(skipped.values())} not compared")
    for why, k in skipped.most_common():
        print(f"  not compared: {k} {why}")


main()
