#!/usr/bin/env python3
"""Launch facts A/B on the GPU: every gpu_bench case and the histogram through `twinjit bench`,
with TWINJIT_LAUNCH_FACTS = 0, noalias, index32, all, alternating, ROUNDS rounds; prints the
median per (case, facts) and the ratio to general. Usage: facts.py TWINJIT INPUT_DIR HIST_DIR"""
import json, os, subprocess, sys, statistics
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "device", "bench"))  # ../shared/gpu_bench, copied by `scripts/gpu-test.sh pack`
import engine_twinjit as E
T, d, hist = sys.argv[1], sys.argv[2], sys.argv[3]
spec = json.load(open(os.path.join(d, "cases.json")))
kfile = os.path.join(d, spec["kernels_file"])
cases = [(c["case"], [kfile, c["func"], "--launch", E.launch(c["launch"])] + E.argv(d, c)) for c in spec["cases"]]
hk = os.path.join(ROOT, "benches", "gpu", "histogram", "kernels.py")
cases.append(("histogram", [hk, "histogram", "--launch", "4224,256", "--arg", f"x={hist}/x.npy", "--arg", f"bins={hist}/bins.npy"]))
FACTS = ["0", "noalias", "index32", "all"]
res = {}
for rnd in range(int(os.environ.get("ROUNDS", "3"))):
    for name, args in cases:
        for f in FACTS:
            env = dict(os.environ, TWINJIT_LAUNCH_FACTS=f)
            p = subprocess.run([T, "bench", args[0], args[1], "--target", "cuda"] + args[2:] + ["--warmup", "3", "--reps", "20"],
                               capture_output=True, text=True, env=env)
            if p.returncode != 0:
                print("FAILED", name, f, p.stderr[-500:]); continue
            res.setdefault((name, f), []).append(json.loads(p.stdout.strip().splitlines()[-1])["median_ms"])
print("| kernel | general ms | noalias | index32 | all | all / general |")
print("|---|---:|---:|---:|---:|---:|")
for name, _ in cases:
    m = {f: statistics.median(res.get((name, f), [float("nan")])) for f in FACTS}
    print(f"| {name} | {m['0']:.4f} | {m['noalias']:.4f} | {m['index32']:.4f} | {m['all']:.4f} | {m['all'] / m['0']:.3f} |")
print("raw:", json.dumps({f"{k[0]}/{k[1]}": v for k, v in res.items()}))
