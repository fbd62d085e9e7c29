"""The on-disk cache, twinjit against Numba's cache=True, on the host example kernels.

For each kernel of examples/kernels/host_kernels.py (copied with every @njit turned into
@njit(cache=True), so both tools read the same source), in fresh processes:
  - twinjit cold: `twinjit run` with an empty cache directory; warm: the same command again;
    the figure is load_ms + compile_ms + run_ms from its JSON (module load, lookup or compile,
    first call), the process start excluded. The timed runs do not log; the warm run is shown
    to be a hit by the entries it leaves: a miss rewrites an entry (a new file renamed over
    it), a hit only touches its times, so every entry file must keep its inode.
  - Numba cold: a fresh Python process with an empty NUMBA_CACHE_DIR that imports numba,
    then times importing the kernel module plus the first call; warm: the same again.
Inputs are small (the call itself is microseconds), so the figures are the first-call costs.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE .venv/bin/python benches/compare/cache_numba.py \
        [--twinjit target/release/twinjit] [--samples 5] [--write BENCHMARKS.md]
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "examples", "kernels", "host_kernels.py")

# name -> (args as {param: array or (dtype, value)})
def cases(d):
    def save(name, a):
        p = os.path.join(d, name + ".npy")
        np.save(p, a)
        return p
    x = save("x", np.linspace(0.0, 1.0, 1000))
    return {
        "fill_array": {"a": save("fa", np.zeros(1000))},
        "ising_energy": {"s": save("s", np.where(np.arange(64 * 64) % 3 == 0, 1.0, -1.0).reshape(64, 64)), "j": ("float64", 1.0)},
        "vecadd": {"a": x, "b": x, "out": save("o1", np.zeros(1000))},
        "exp_decay": {"x": x, "rate": ("float64", 0.5), "out": save("o2", np.zeros(1000))},
        "mandelbrot": {"out": save("m", np.zeros((32, 32), dtype=np.int32)), "max_iter": ("int64", 20)},
        "matmul": {"a": save("ma", np.ones((16, 16))), "b": save("mb", np.ones((16, 16))), "c": save("mc", np.zeros((16, 16)))},
        "histogram": {"x": x, "lo": ("float64", 0.0), "hi": ("float64", 1.0), "counts": save("h", np.zeros(10, dtype=np.int64))},
        "dot": {"a": x, "b": x},
    }


def entry_inodes(cache_dir):
    return {e.name: e.inode() for e in os.scandir(cache_dir) if e.name.endswith(".twjc")}


def twinjit_once(exe, kfile, name, args, cache_dir):
    """(milliseconds, whether the run was a hit: it rewrote no entry and added none)."""
    argv = [exe, "run", kfile, name]
    for p, v in args.items():
        argv += ["--arg", f"{p}={v}" if isinstance(v, str) else f"{p}={v[0]}:{v[1]}"]
    env = dict(os.environ, TWINJIT_CACHE_DIR=cache_dir)
    env.pop("TWINJIT_CACHE_LOG", None)
    before = entry_inodes(cache_dir) if os.path.isdir(cache_dir) else {}
    r = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    j = json.loads(r.stdout.strip().splitlines()[-1])
    hit = bool(before) and entry_inodes(cache_dir) == before
    return j["load_ms"] + j["compile_ms"] + j["run_ms"], hit


NUMBA_CHILD = r"""
import importlib, os, sys, time, json
import numpy as np
import numba
path, name, spec = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
args = [np.load(v) if isinstance(v, str) else np.dtype(v[0]).type(v[1]) for v in spec]
sys.path.insert(0, os.path.dirname(path))
t0 = time.perf_counter()
m = importlib.import_module("cached_kernels")
getattr(m, name)(*args)
t1 = time.perf_counter()
print((t1 - t0) * 1e3)
"""


def numba_once(py, kfile, name, args, cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    r = subprocess.run([py, "-c", NUMBA_CHILD, kfile, name, json.dumps(list(args.values()))],
                       capture_output=True, text=True, env=env, check=True)
    return float(r.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--twinjit", default=os.path.join(ROOT, "target", "release", "twinjit"))
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--write")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="twinjit-cache-bench-")
    kfile = os.path.join(work, "cached_kernels.py")
    with open(SRC) as f:
        open(kfile, "w").write(f.read().replace("@njit\n", "@njit(cache=True)\n"))
    rows = []
    for name, args in cases(work).items():
        tc, tw, nc, nw = [], [], [], []
        for _ in range(a.samples):
            tdir = tempfile.mkdtemp(dir=work)
            t, hit = twinjit_once(a.twinjit, kfile, name, args, tdir)
            assert not hit
            tc.append(t)
            t, hit = twinjit_once(a.twinjit, kfile, name, args, tdir)
            assert hit, f"{name}: the second twinjit process did not hit the cache"
            tw.append(t)
            ndir = tempfile.mkdtemp(dir=work)
            nc.append(numba_once(sys.executable, kfile, name, args, ndir))
            nw.append(numba_once(sys.executable, kfile, name, args, ndir))
        m = statistics.median
        rows.append((name, m(tc), m(tw), m(nc), m(nw)))
        print(f"{name:14s} twinjit cold {m(tc):8.2f} ms warm {m(tw):7.3f} ms | numba cold {m(nc):8.1f} ms warm {m(nw):7.1f} ms", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    lines = ["| kernel | twinjit cold ms | twinjit warm ms | cold / warm | Numba cold ms | Numba warm (cache=True) ms | Numba warm / twinjit warm |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, tc, tw, nc, nw in rows:
        lines.append(f"| {name} | {tc:.2f} | {tw:.3f} | {tc / tw:.1f}x | {nc:.1f} | {nw:.1f} | {nw / tw:.0f}x |")
    table = "\n".join(lines)
    print(table)
    if a.write:
        text = open(a.write).read()
        begin, end = "<!-- cache-compare:begin -->", "<!-- cache-compare:end -->"
        block = f"{begin}\n{table}\n{end}"
        if begin in text:
            text = text[: text.index(begin)] + block + text[text.index(end) + len(end):]
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
        open(a.write, "w").write(text)


if __name__ == "__main__":
    main()
