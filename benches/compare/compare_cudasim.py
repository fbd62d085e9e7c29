"""Kernels without a GPU: numba-cuda's simulator (NUMBA_ENABLE_CUDASIM=1), twinjit's reference
interpreter (`twinjit run --target interp`) and twinjit's compiled CPU target for kernels
(`twinjit bench --target cuda-sim`), side by side in one run.

Usage (from the repository root, after `cargo build --release -p twinjit-cli`):
    .venv/bin/python benches/compare/compare_cudasim.py [--rounds 3]

Kernels of tests/kernels_cuda (elementwise.py add_f64, shared_sync.py block_sum and
transpose_tiled) at a few thousand threads, where
all three run, then at realistic sizes (a million threads and more), where the simulator would
take minutes and only twinjit's two runners are timed. The simulator runs in a subprocess (its
switch is read at import) and is timed around the launch after a warm-up launch; the
interpreter's figure is the `run_ms` its CLI reports (the launch, after parsing and typing);
cuda-sim's is the best launch of `twinjit bench` (compiled once, launched after a warm-up).
Then the kernels of the GPU benchmark (`../shared/gpu_bench`, `--gpu-bench DIR`) at its
`--small` sizes, inputs written by its own `bench_numba.py --write-inputs`. Each figure is the
best of --rounds. Before timing, one launch of each on cuda-sim and in the interpreter must write
the same arrays (`--out`), or the script stops.
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

# (file, kernel, grid, block, arrays by parameter name, whether the simulator runs it)
CASES = [
    ("elementwise.py", "add_f64", 16, 256,
     {"a": np.arange(4096.0), "b": np.full(4096, 0.25), "out": np.zeros(4096)}, True),
    ("shared_sync.py", "block_sum", 16, 64,
     {"a": np.arange(1024.0), "out": np.zeros(16)}, True),
    ("shared_sync.py", "transpose_tiled", (2, 4), (32, 8),
     {"a": np.arange(64 * 128, dtype=np.int32).reshape(128, 64), "out": np.zeros((64, 128), dtype=np.int32)}, True),
    ("elementwise.py", "add_f64", 4096, 256,
     {"a": np.arange(2.0 ** 20), "b": np.full(2 ** 20, 0.25), "out": np.zeros(2 ** 20)}, False),
    ("shared_sync.py", "block_sum", 4096, 64,
     {"a": np.arange(2.0 ** 18), "out": np.zeros(4096)}, False),
    ("shared_sync.py", "transpose_tiled", (32, 64), (32, 8),
     {"a": np.arange(1024 * 2048, dtype=np.int32).reshape(2048, 1024),
      "out": np.zeros((1024, 2048), dtype=np.int32)}, False),
]

SIM = r"""
import json, os, sys, time, importlib.util
import numpy as np
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack
path, name, grid, block, spec = sys.argv[1], sys.argv[2], eval(sys.argv[3]), eval(sys.argv[4]), sys.argv[5]
spec_ = importlib.util.spec_from_file_location("m", path)
m = importlib.util.module_from_spec(spec_); spec_.loader.exec_module(m)
k = getattr(m, name)
args = [np.load(a["npy"]) if "npy" in a else getattr(np, a["dtype"])(a["scalar"]) for a in json.loads(spec)]
k[grid, block](*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
t = time.perf_counter()
k[grid, block](*args)
print((time.perf_counter() - t) * 1e3)
"""


def launch_text(x):
    return "(%s)" % ",".join(map(str, x)) if isinstance(x, tuple) else str(x)


def twinjit_args(spec):
    out = []
    for a in spec:
        if "npy" in a:
            out += ["--arg", "%s=%s" % (a["name"], a["npy"])]
        else:
            out += ["--arg", "%s=%s:%r" % (a["name"], a["dtype"], a["scalar"])]
    return out


def outputs_agree(path, kernel, launch, argv):
    """Whether one cuda-sim launch writes the arrays the interpreter's does (floats to 1e-12)."""
    got = {}
    with tempfile.TemporaryDirectory() as d:
        for target in ("interp", "cuda-sim"):
            out = os.path.join(d, target)
            subprocess.run([TWINJIT, "run", path, kernel, "--target", target, "--out", out] + launch + argv,
                           capture_output=True, text=True, check=True)
            got[target] = {f: np.load(os.path.join(out, f)) for f in sorted(os.listdir(out)) if f.endswith(".npy")}
    a, b = got["interp"], got["cuda-sim"]
    return a.keys() == b.keys() and all(np.allclose(a[k], b[k], rtol=1e-12, atol=0) for k in a)


def time_case(path, kernel, grid, block, spec, simulate, rounds):
    """(simulator ms or None, interpreter ms, cuda-sim ms), each the best of `rounds`; raises if
    cuda-sim's outputs differ from the interpreter's."""
    sim, interp, compiled = [], [], []
    launch = ["--launch", "%s,%s" % (launch_text(grid), launch_text(block))]
    argv = twinjit_args(spec)
    if not outputs_agree(path, kernel, launch, argv):
        raise SystemExit(f"{kernel}: cuda-sim's outputs differ from the interpreter's")
    for _ in range(rounds):
        if simulate:
            out = subprocess.run([sys.executable, "-c", SIM, path, kernel, repr(grid), repr(block), json.dumps(spec)],
                                 capture_output=True, text=True, check=True)
            sim.append(float(out.stdout.strip().splitlines()[-1]))
        cmd = [TWINJIT, "run", path, kernel, "--target", "interp"] + launch + argv
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        interp.append(json.loads(out.stdout)["run_ms"])
        cmd = [TWINJIT, "bench", path, kernel, "--target", "cuda-sim", "--warmup", "1", "--reps", "5"]
        out = subprocess.run(cmd + launch + argv, capture_output=True, text=True, check=True)
        compiled.append(json.loads(out.stdout)["min_ms"])
    return (min(sim) if sim else None), min(interp), min(compiled)


def row(label, threads, times):
    s, t, c = times
    if s is not None:
        print(f"| {label} | {threads} | {s:.1f} | {t:.1f} | {c:.3f} | {s / c:.0f}x | {t / c:.0f}x |")
    else:
        print(f"| {label} | {threads} | (not run) | {t:.1f} | {c:.3f} | | {t / c:.0f}x |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--gpu-bench", default=os.path.join(os.path.dirname(ROOT), "shared", "gpu_bench"),
                    help="the GPU benchmark's directory: its kernels at its --small sizes are timed too")
    args = ap.parse_args()
    print("| kernel | threads | numba-cuda simulator ms | twinjit interpreter ms | twinjit cuda-sim ms "
          "| simulator / cuda-sim | interpreter / cuda-sim |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for file, kernel, grid, block, arrays, simulate in CASES:
        with tempfile.TemporaryDirectory() as d:
            spec = []
            for n, a in arrays.items():
                np.save(os.path.join(d, n + ".npy"), a)
                spec.append({"name": n, "npy": os.path.join(d, n + ".npy")})
            times = time_case(os.path.join(CUDA, file), kernel, grid, block, spec, simulate, args.rounds)
        row(f"{file}: {kernel}", np.prod(grid) * np.prod(block), times)
    bench = os.path.join(args.gpu_bench, "bench_numba.py")
    if not os.path.exists(bench):
        print(f"\n(no GPU benchmark at {args.gpu_bench}: its kernels were not timed)")
        return
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
        subprocess.run([sys.executable, bench, "--write-inputs", d, "--small"], env=env, check=True,
                       capture_output=True, text=True)
        cases = json.load(open(os.path.join(d, "cases.json")))
        path = os.path.join(args.gpu_bench, cases["kernels_file"])
        for c in cases["cases"]:
            spec = [dict(a, npy=os.path.join(d, a["npy"])) if "npy" in a else a for a in c["args"]]
            grid, block = (tuple(x) if isinstance(x, list) else x for x in c["launch"])
            times = time_case(path, c["func"], grid, block, spec, True, args.rounds)
            row(f"gpu_bench (small): {c['case']}", np.prod(grid) * np.prod(block), times)


if __name__ == "__main__":
    main()
