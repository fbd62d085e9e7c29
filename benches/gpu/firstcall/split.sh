#!/usr/bin/env bash
# Where a kernel's first call goes, on the GPU machine (device tool, carry ["device"], after
# `scripts/gpu-test.sh pack`): `twinjit ptx` (front end + LLVM) of each benchmark kernel, and
# ptxas at -O3..-O0 on its PTX (a proxy for the driver's JIT); then compare with
# `scripts/gpu-test.sh firstcall` (compile_ms of `twinjit run`). Not yet run (stop 43).
set -u
cd "$(dirname "$0")/../../.."
mkdir -p /tmp/twinjit; [[ -f /tmp/twinjit/.unpacked ]] || { xz -dc device/bin.tar.xz | tar -C /tmp/twinjit -xf - && touch /tmp/twinjit/.unpacked; }
T=/tmp/twinjit/bin/twinjit
export PATH=$PATH:/usr/local/cuda/bin
K=device/bench/kernels_cuda.py
nproc; lscpu | grep "Model name"
python3 - "$T" "$K" <<'PY'
import subprocess, sys, time, statistics, os, json
T, K = sys.argv[1], sys.argv[2]
def wall(cmd, n=5, **kw):
    s = []
    for _ in range(n):
        t = time.perf_counter(); r = subprocess.run(cmd, capture_output=True, text=True, **kw); s.append((time.perf_counter() - t) * 1e3)
        if r.returncode: print("FAIL", cmd, r.stderr[:500]); return None, r
    return statistics.median(s), r
print("startup --version ms", wall([T, "--version"])[0])
ks = {"vecadd": "void(float32[:],float32[:],float32[:])", "exp_decay": "void(float64[:],float64,float64[:])",
      "transpose_tiled": "void(float32[:,:],float32[:,:])", "block_reduce": "void(float32[:],float32[:])",
      "matmul_tiled": "void(float32[:,:],float32[:,:],float32[:,:])"}
for k, sig in ks.items():
    m, r = wall([T, "ptx", K, k, "--sig", sig, "--facts", "all"])
    open(f"/tmp/{k}.ptx", "w").write(r.stdout)
    line = f"{k}: ptx {m:.1f} ms ({len(r.stdout)} bytes)"
    for o in ["3", "2", "1", "0"]:
        mo, _ = wall(["ptxas", "-arch=sm_90", f"-O{o}", f"/tmp/{k}.ptx", "-o", "/tmp/x.cubin"])
        line += f", ptxas -O{o} {mo:.1f}"
    print(line, flush=True)
PY
