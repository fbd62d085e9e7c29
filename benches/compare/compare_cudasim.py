"""Kernels without a GPU: numba-cuda's simulator (NUMBA_ENABLE_CUDASIM=1) against twinjit's
reference interpreter (`twinjit run --target interp`), side by side in one run.

Usage (from the repository root, after `cargo build --release -p twinjit-cli`):
    .venv/bin/python benches/compare/compare_cudasim.py [--rounds 3]

Kernels of tests/kernels_cuda (elementwise.py add_f64, shared_sync.py block_sum and
transpose_tiled) at a few thousand threads. The simulator runs in a subprocess (its switch is
read at import) and is timed around the launch after a warm-up launch; twinjit's figure is the
`run_ms` its CLI reports (the interpreter's launch, after parsing and typing). Each figure is
the best of --rounds. This measures the interpreter, the oracle; issue 18's compiled CPU target
for kernels does not exist yet.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TWINJIT = os.path.join(ROOT, "target", "release", "twinjit")
CUDA = os.path.join(ROOT, "tests", "kernels_cuda")

# (file, kernel, grid, block, arrays by parameter name)
CASES = [
    ("elementwise.py", "add_f64", 16, 256,
     {"a": np.arange(4096.0), "b": np.full(4096, 0.25), "out": np.zeros(4096)}),
    ("shared_sync.py", "block_sum", 16, 64,
     {"a": np.arange(1024.0), "out": np.zeros(16)}),
    ("shared_sync.py", "transpose_tiled", (2, 4), (32, 8),
     {"a": np.arange(64 * 128, dtype=np.int32).reshape(128, 64), "out": np.zeros((64, 128), dtype=np.int32)}),
]

SIM = r"""
import os, sys, time, importlib.util
import numpy as np
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
path, name, grid, block, d = sys.argv[1], sys.argv[2], eval(sys.argv[3]), eval(sys.argv[4]), sys.argv[5]
spec = importlib.util.spec_from_file_location("m", path)
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
k = getattr(m, name)
names = sys.argv[6].split(",")
args = [np.load(os.path.join(d, n + ".npy")) for n in names]
k[grid, block](*[a.copy() for a in args])
t = time.perf_counter()
k[grid, block](*args)
print((time.perf_counter() - t) * 1e3)
"""


def launch_text(x):
    return "(%s)" % ",".join(map(str, x)) if isinstance(x, tuple) else str(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print("| kernel | threads | numba-cuda simulator ms | twinjit interpreter ms | simulator / interpreter |")
    print("|---|---:|---:|---:|---:|")
    for file, kernel, grid, block, arrays in CASES:
        path = os.path.join(CUDA, file)
        with tempfile.TemporaryDirectory() as d:
            for n, a in arrays.items():
                np.save(os.path.join(d, n + ".npy"), a)
            sim, interp = [], []
            for _ in range(args.rounds):
                out = subprocess.run([sys.executable, "-c", SIM, path, kernel, repr(grid), repr(block), d,
                                      ",".join(arrays)], capture_output=True, text=True, check=True)
                sim.append(float(out.stdout.strip().splitlines()[-1]))
                cmd = [TWINJIT, "run", path, kernel, "--target", "interp", "--launch",
                       "%s,%s" % (launch_text(grid), launch_text(block))]
                for n in arrays:
                    cmd += ["--arg", "%s=%s" % (n, os.path.join(d, n + ".npy"))]
                out = subprocess.run(cmd, capture_output=True, text=True, check=True)
                interp.append(json.loads(out.stdout)["run_ms"])
        threads = np.prod(grid) * np.prod(block)
        s, t = min(sim), min(interp)
        print(f"| {kernel} | {threads} | {s:.1f} | {t:.1f} | {s / t:.1f}x |")


if __name__ == "__main__":
    main()
