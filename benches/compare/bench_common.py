"""What the comparison scripts share: loading a kernels file as a fresh module, and timing."""
import importlib.util
import statistics
import time


def load_kernels(path, name):
    """The Python file `path` imported as module `name` (Numba compiles its functions lazily)."""
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def call_times(fn, reps):
    """Seconds of each of `reps` calls of `fn`, after one warm-up call."""
    fn()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return ts


def median_ms(fn, reps):
    """The median of `reps` timed calls, in milliseconds."""
    return statistics.median(call_times(fn, reps)) * 1e3


def median_min_us(fn, reps):
    """(median, minimum) of `reps` timed calls, in microseconds."""
    ts = call_times(fn, reps)
    return statistics.median(ts) * 1e6, min(ts) * 1e6


def example_rows(root, example):
    """The JSON objects, one per line, that `cargo run --release --example EXAMPLE` prints."""
    import json
    import subprocess

    cmd = ["cargo", "run", "--release", "--quiet", "--example", example]
    out = subprocess.run(cmd, cwd=root, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def best_of(rounds):
    """Per key, the smallest figure of the rounds (each a dict of the same keys)."""
    return {k: min(r[k] for r in rounds) for k in rounds[0]}
