"""Host benchmark: the same kernels under Numba (@njit) and twinjit, side by side, in one run.

Usage (from the repository root):
    python3 -m venv .venv && .venv/bin/pip install numba
    .venv/bin/python benches/compare/compare_numba.py [--write BENCHMARKS.md]

twinjit's figures come from `cargo run --release --example bench_host` (run by this script on
the same machine). The two sides alternate for --rounds rounds (default 3) and each figure is
the best round's median, so that a burst of noise on this shared machine does not land on one
side only. Numba's compile figure is its first call minus one steady call, measured after Numba
itself is imported and warmed up on an unrelated function.
"""
import argparse
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np
from markdown_section import write_section
import numba

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = os.path.join(ROOT, "examples", "kernels", "host_kernels.py")


def load_fresh():
    # A fresh module object means fresh, uncompiled dispatchers.
    spec = importlib.util.spec_from_file_location(f"hk{time.perf_counter_ns()}", KERNELS)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def times(fn, reps):
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return ts


def median_time(fn, reps):
    return statistics.median(times(fn, reps))


def numba_side():
    # Warm Numba's own machinery up first so that "first call" is the kernel's compile only.
    @numba.njit
    def _warm(x):
        return x + 1
    _warm(1)

    n = 10_000_000
    side = 2000
    k = 256
    i = np.arange(side * side)
    spins = np.where((i * 7919 + 13) % 5 < 2, 1.0, -1.0).reshape(side, side)
    x = ((np.arange(n, dtype=np.int64) * 2654435761) % 1000).astype(np.float64) * 1e-3
    ma = (np.arange(k * k) % 17).astype(np.float64).reshape(k, k) * 0.5
    mb = (np.arange(k * k) % 13).astype(np.float64).reshape(k, k) * 0.25
    cases = {
        "fill_array": ("fill_array", lambda: (np.zeros(n),), 15),
        "ising_energy": ("ising_energy", lambda: (spins, 1.0), 15),
        "ising_field": ("ising_field", lambda: (spins, 1.0, 0.5), 15),
        "mandelbrot": ("mandelbrot", lambda: (np.zeros((1000, 1000), dtype=np.int32), 100), 7),
        "matmul": ("matmul", lambda: (ma, mb, np.zeros((k, k))), 15),
        "prefix_sum": ("prefix_sum", lambda: (x, np.zeros(n)), 15),
        "histogram": ("histogram", lambda: (x, 0.0, 1.0, np.zeros(100, dtype=np.int64)), 15),
        "dot": ("dot", lambda: (x, x), 15),
        "exp_decay": ("exp_decay", lambda: (x, 0.5, np.zeros(n)), 15),
        # The variants (the same kernels written other ways).
        "fill_array_len": ("fill_array_len", lambda: (np.zeros(n),), 15),
        "ising_rows": ("ising_rows", lambda: (spins, 1.0), 15),
        "mandelbrot_complex": ("mandelbrot_complex", lambda: (np.zeros((1000, 1000), dtype=np.int32), 100), 7),
        "matmul_ikj": ("matmul_ikj", lambda: (ma, mb, np.zeros((k, k))), 15),
        "prefix_sum_prev": ("prefix_sum_prev", lambda: (x, np.zeros(n)), 15),
        "histogram_iter": ("histogram_iter", lambda: (x, 0.0, 1.0, np.zeros(100, dtype=np.int64)), 15),
        "dot_zip": ("dot_zip", lambda: (x, x), 15),
        "exp_decay_np": ("exp_decay_np", lambda: (x, 0.5, np.zeros(n)), 15),
    }
    out = {}
    for key, (fname, make, reps) in cases.items():
        m = load_fresh()
        f = getattr(m, fname)
        args = make()
        t = time.perf_counter()
        f(*args)
        first = time.perf_counter() - t
        ts = times(lambda: f(*args), reps)
        steady = statistics.median(ts)
        out[key] = {"first_call_ms": first * 1e3, "compile_ms": (first - steady) * 1e3, "run_ms": steady * 1e3,
                    "run_min_ms": min(ts) * 1e3}
    m = load_fresh()
    small = np.ones(8)
    m.call_overhead(small, 0)
    calls = 200_000
    f = m.call_overhead
    def loop():
        for j in range(calls):
            f(small, j)
    out["call_overhead"] = {"ns": median_time(loop, 5) / calls * 1e9}
    return out


def twinjit_side():
    cmd = ["cargo", "run", "--release", "--quiet", "--example", "bench_host"]
    res = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True)
    rows = [json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")]
    return {r["kernel"]: r for r in rows}


def best(rounds, key_fields):
    """Per kernel, the minimum of each field over the rounds."""
    out = {}
    for r in rounds:
        for k, row in r.items():
            cur = out.setdefault(k, dict(row))
            for f in key_fields:
                if f in row:
                    cur[f] = min(cur[f], row[f])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", help="replace the host section of this markdown file")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "bench_host"], cwd=ROOT, check=True)
    nbs, tjs = [], []
    for _ in range(a.rounds):
        tjs.append(twinjit_side())
        nbs.append(numba_side())
    tj = best(tjs, ["compile_ms", "specialize_ms", "run_ms", "run_min_ms", "dispatcher_ns", "typed_ns"])
    nb = best(nbs, ["compile_ms", "run_ms", "run_min_ms", "first_call_ms", "ns"])
    lines = []
    lines.append(f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
                 f"numba {numba.__version__}, numpy {np.__version__}, Python {platform.python_version()}; "
                 f"best of {a.rounds} alternating rounds, each the median of its repetitions.")
    lines.append("")
    lines.append("| kernel | twinjit cold compile ms (load + specialise / specialise) | Numba compile ms | compile speed-up (cold / specialise) | twinjit run ms (min / median) | Numba run ms (min / median) | run ratio, min (median) |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    ratios, mratios = [], []
    base = ["fill_array", "ising_energy", "ising_field", "mandelbrot", "matmul", "prefix_sum", "histogram", "dot",
            "exp_decay"]
    variants = ["fill_array_len", "ising_rows", "mandelbrot_complex", "matmul_ikj", "prefix_sum_prev", "histogram_iter",
                "dot_zip", "exp_decay_np"]
    for key in base + variants:
        t, n = tj[key], nb[key]
        r = t["run_min_ms"] / n["run_min_ms"]
        rm = t["run_ms"] / n["run_ms"]
        ratios.append(r)
        mratios.append(rm)
        lines.append(f"| {key} | {t['compile_ms']:.2f} / {t['specialize_ms']:.2f} | {n['compile_ms']:.1f} "
                     f"| {n['compile_ms'] / t['compile_ms']:.0f}x / {n['compile_ms'] / t['specialize_ms']:.0f}x "
                     f"| {t['run_min_ms']:.2f} / {t['run_ms']:.2f} | {n['run_min_ms']:.2f} / {n['run_ms']:.2f} | {r:.2f} ({rm:.2f}) |")
    geo = float(np.exp(np.mean(np.log(ratios))))
    mgeo = float(np.exp(np.mean(np.log(mratios))))
    lines.append("")
    lines.append(f"Run-time geometric mean (twinjit/Numba) of the best times, all {len(ratios)} kernels: **{geo:.2f}** "
                 f"(of medians: {mgeo:.2f}); worst kernel {max(ratios):.2f} ({max(mratios):.2f}).")
    vb = len(base)
    for label, rs, ms in (("the nine first spellings", ratios[:vb], mratios[:vb]),
                          ("the variants", ratios[vb:], mratios[vb:])):
        lines.append(f"Of {label}: {float(np.exp(np.mean(np.log(rs)))):.2f} "
                     f"(of medians: {float(np.exp(np.mean(np.log(ms)))):.2f}), worst {max(rs):.2f}.")
    co = tj["call_overhead"]
    lines.append(f"Per-call overhead (one slice + one int): twinjit dispatcher {co['dispatcher_ns']:.0f} ns, "
                 f"typed handle {co['typed_ns']:.0f} ns; Numba dispatcher {nb['call_overhead']['ns']:.0f} ns.")
    text = "\n".join(lines)
    print(text)
    if a.write:
        write_section(ROOT, a.write, "host-compare", text)


if __name__ == "__main__":
    main()
