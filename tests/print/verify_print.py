#!/usr/bin/env python3
"""Runs the demo_* functions of prints.py under real Numba and compares (or, with
--generate, writes) prints.expected: one `== NAME` header per function, then what it printed.

    python tests/print/verify_print.py [--generate]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import prints  # noqa: E402

ARGS = {"demo_returns": (21,)}


def main():
    # Numba prints through C stdio: capture at the file-descriptor level instead.
    import tempfile
    text = []
    for name in sorted(n for n in dir(prints) if n.startswith("demo_")):
        with tempfile.TemporaryFile(mode="w+") as tmp:
            sys.stdout.flush()
            saved = os.dup(1)
            os.dup2(tmp.fileno(), 1)
            try:
                getattr(prints, name)(*ARGS.get(name, ()))
                sys.stdout.flush()
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            tmp.seek(0)
            text.append(f"== {name}\n{tmp.read()}")
    got = "".join(text)
    path = os.path.join(HERE, "prints.expected")
    if "--generate" in sys.argv:
        with open(path, "w") as f:
            f.write(got)
        print("generated", path)
        return 0
    want = open(path).read()
    if got != want:
        print("prints.expected differs from Numba's output:\n" + got)
        return 1
    print("prints.expected matches Numba")
    return 0


if __name__ == "__main__":
    sys.exit(main())
