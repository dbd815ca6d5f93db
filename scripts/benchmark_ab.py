#!/usr/bin/python3
"""Two builds of transit side by side: the same command run by each in turn (A, B, A, B…), so the
load of a shared machine falls on both alike; medians over --runs rounds, and B's median over A's.
For "the figures do not get worse": A is the build before a change, B after it. Not a test (the
figures depend on the machine).

  scripts/benchmark_ab.py A_TRANSIT B_TRANSIT [--runs N] -- ARGS...

  e.g. scripts/benchmark_ab.py /tmp/before/.build/release/transit .build/release/transit \
           -- scan --no-save --card samples/suica.json

Both run in a temporary XDG_DATA_HOME and XDG_CONFIG_HOME (nothing touches the user's archive or
configuration), their output discarded; a run that fails is said and ends the comparison.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--runs", type=int, default=41)
    ap.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_DATA_HOME=os.path.join(home, "data"), XDG_CONFIG_HOME=os.path.join(home, "config"))
        times = {opts.a: [], opts.b: []}
        for _ in range(opts.runs):
            for binary in (opts.a, opts.b):
                start = time.perf_counter()
                run = subprocess.run([binary] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
                times[binary].append((time.perf_counter() - start) * 1000)
                if run.returncode != 0:
                    print(f"{binary} {' '.join(args)}: exit {run.returncode}: {run.stderr.decode(errors='replace').strip()}", file=sys.stderr)
                    return 1
    a, b = statistics.median(times[opts.a]), statistics.median(times[opts.b])
    print(f"{' '.join(args)}: A {a:.1f} ms, B {b:.1f} ms (medians of {opts.runs}), B/A {b / a:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
