"""The CUDA side of the disk cache against numba-cuda's cache=True, on the GPU machine.

For vecadd, exp_decay and matmul_tiled of the shared benchmark's kernels_cuda.py (copied with
every `@cuda.jit` made `@cuda.jit(cache=True)`, so both tools read the same file), in fresh
processes with the driver's JIT cache off (CUDA_CACHE_DISABLE=1):
  - twinjit: `twinjit run --target cuda --cache always`; the figure is load_ms + compile_ms +
    run_ms (module load, kernel from the cache or compiled, one launch and synchronize).
  - numba-cuda: a process that has imported numba.cuda and put the inputs on the device times
    importing the kernel module plus the first launch and synchronize.
Cold: an empty cache directory; warm: five more processes with the same directory (median).

    python3 benches/gpu/cache_numba_cuda.py /tmp/twinjit/bin/twinjit device/bench/kernels_cuda.py
"""
import json, os, statistics, subprocess, sys, tempfile

import numpy as np

TWINJIT, KERNELS = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="cache-cuda-")
kfile = os.path.join(work, "cached_kernels_cuda.py")
with open(KERNELS) as f:
    open(kfile, "w").write(f.read().replace("@cuda.jit\n", "@cuda.jit(cache=True)\n"))


def save(name, a):
    p = os.path.join(work, name + ".npy")
    np.save(p, a)
    return p


r = np.random.default_rng(1)
n, m = 1 << 22, 1024
x32, y32, o32 = save("x32", r.random(n, dtype=np.float32)), save("y32", r.random(n, dtype=np.float32)), save("o32", np.zeros(n, np.float32))
x64, o64 = save("x64", r.random(n)), save("o64", np.zeros(n))
A, B, C = save("A", r.random((m, m), dtype=np.float32)), save("B", r.random((m, m), dtype=np.float32)), save("C", np.zeros((m, m), np.float32))
# name -> (grid, block, [(param, npy path or (dtype, value))])
CASES = {
    "vecadd": ((n // 256,), (256,), [("a", x32), ("b", y32), ("out", o32)]),
    "exp_decay": ((n // 256,), (256,), [("x", x64), ("tau", ("float64", 2.5)), ("out", o64)]),
    "matmul_tiled": ((m // 16, m // 16), (16, 16), [("A", A), ("B", B), ("C", C)]),
}

# numba-cuda 0.30.4 with the GPU machine's NumPy fails on its cache-load path (it registers an
# overload of np.row_stack, which NumPy 2.5 no longer has): AttributeError: module 'numpy' has no
# attribute 'row_stack'. The child restores the alias (np.vstack) before importing numba, the
# workaround a user would apply; without cache=True numba-cuda never reaches that code.
NUMBA_CHILD = r"""
import importlib, json, os, sys, time
import numpy as np
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack
from numba import cuda
kdir, name, grid, block, args = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4]), json.loads(sys.argv[5])
vals = [cuda.to_device(np.load(v)) if isinstance(v, str) else np.dtype(v[0]).type(v[1]) for _, v in args]
cuda.synchronize()
sys.path.insert(0, kdir)
t0 = time.perf_counter()
mod = importlib.import_module("cached_kernels_cuda")
getattr(mod, name)[tuple(grid), tuple(block)](*vals)
cuda.synchronize()
print((time.perf_counter() - t0) * 1e3)
"""


def env(**kw):
    e = dict(os.environ, CUDA_CACHE_DISABLE="1")
    e.update(kw)
    return e


def twinjit(name, cache):
    grid, block, args = CASES[name]
    launch = ",".join("(" + ",".join(map(str, t)) + ")" if len(t) > 1 else str(t[0]) for t in (grid, block))
    argv = [TWINJIT, "run", kfile, name, "--target", "cuda", "--launch", launch, "--cache", "always"]
    for p, v in args:
        argv += ["--arg", f"{p}={v}" if isinstance(v, str) else f"{p}={v[0]}:{v[1]}"]
    out = subprocess.run(argv, capture_output=True, text=True, env=env(TWINJIT_CACHE_DIR=cache), check=True).stdout
    j = json.loads(out.strip().splitlines()[-1])
    return j["load_ms"] + j["compile_ms"] + j["run_ms"]


def numba(name, cache):
    grid, block, args = CASES[name]
    argv = [sys.executable, "-c", NUMBA_CHILD, work, name, json.dumps(grid), json.dumps(block), json.dumps(args)]
    r = subprocess.run(argv, capture_output=True, text=True, env=env(NUMBA_CACHE_DIR=cache))
    if r.returncode != 0:
        sys.exit(f"numba-cuda failed on {name}:\n{r.stderr[-3000:]}")
    return float(r.stdout.strip().splitlines()[-1])


rows = []
for name in CASES:
    res = {}
    for tool, f in (("twinjit", twinjit), ("numba", numba)):
        d = tempfile.mkdtemp(dir=work)
        cold = f(name, d)
        warm = [f(name, d) for _ in range(5)]
        res[tool] = (cold, statistics.median(warm), warm)
    rows.append((name, res))
    print(name, json.dumps(res), flush=True)
lines = ["| kernel | twinjit cold ms | twinjit warm ms | numba-cuda cold ms | numba-cuda warm (cache=True) ms | numba-cuda warm / twinjit warm |",
         "|---|---:|---:|---:|---:|---:|"]
for name, res in rows:
    (tc, tw, _), (nc, nw, _) = res["twinjit"], res["numba"]
    lines.append(f"| {name} | {tc:.2f} | {tw:.3f} | {nc:.1f} | {nw:.1f} | {nw / tw:.0f}x |")
table = "\n".join(lines)
print(table)
if os.environ.get("OUT"):
    open(os.path.join(os.environ["OUT"], "cache-numba-cuda.md"), "w").write(table + "\n")
