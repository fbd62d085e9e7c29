#!/usr/bin/env bash
# Launch facts on the GPU (issue 17 item 4, BENCHMARKS.md): nvcc's histogram, then facts.py
# (every gpu_bench kernel and the histogram with TWINJIT_LAUNCH_FACTS = 0, noalias, index32,
# all). After `scripts/gpu-test.sh pack` here; on the GPU machine, through the device tool:
#   run(command="ROUNDS=2 bash benches/gpu/launch_facts/run.sh", carry=["device"])
set -uo pipefail
cd "$(dirname "$0")/../../.."
eval "$(sed -n '/^unpack()/,/^}/p' scripts/gpu-test.sh)"; ROOT="$PWD"; PACK="$ROOT/device"; unpack
export PATH="$PATH:/usr/local/cuda/bin"
T=/tmp/twinjit/bin/twinjit; B="$PACK/bench"; W=/tmp/facts; mkdir -p "$W"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 "$B/bench_numba.py" --write-inputs "$W/in" > /dev/null 2> "$W/wi.log" || tail "$W/wi.log"
cp "$B/kernels_cuda.py" "$W/in/"
# histogram inputs and nvcc's histogram (benches/gpu/histogram/run.sh's first half)
H=/tmp/twinjit-hist; mkdir -p $H
python3 - "$H" <<'PY'
import sys, numpy as np
w = sys.argv[1]; x = np.random.default_rng(7).random(1 << 26, dtype=np.float32)
np.save(f"{w}/x.npy", x); np.save(f"{w}/bins.npy", np.zeros(256, np.int32))
PY
nvcc -O3 -arch=sm_90 -o "$H/hist" benches/gpu/histogram/histogram.cu && for i in 1 2 3; do "$H/hist" 4224 "$H/x.npy"; done
python3 benches/gpu/launch_facts/facts.py "$T" "$W/in" "$H"
for i in 1 2 3; do "$H/hist" 4224 "$H/x.npy"; done
