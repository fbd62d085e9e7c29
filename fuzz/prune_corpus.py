"""Keeps the smallest files of a (minimised) fuzz corpus up to a size budget, so that the
checked-in corpora stay small and `tests/fuzz_replay.rs` stays fast on CI.

    python3 fuzz/prune_corpus.py fuzz/corpus/parse_module 1500000
"""
import os
import sys

d, budget = sys.argv[1], int(sys.argv[2])
files = sorted((os.path.getsize(os.path.join(d, f)), f) for f in os.listdir(d))
total = 0
kept = 0
for size, f in files:
    if total + size <= budget:
        total += size
        kept += 1
    else:
        os.remove(os.path.join(d, f))
print(f"{d}: kept {kept} of {len(files)} files, {total} bytes")
