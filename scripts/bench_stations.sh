#!/bin/sh
# Times `transit scan --card samples/suica.json` with a generated 7,000-row station table against
# the same read without one, and prints both medians and their difference (the table's cost:
# finding, reading and parsing it). The table is made up (names "駅0001", "Station 0001"): transit
# ships no station data. Usage: scripts/bench_stations.sh [RUNS] [BUILD_DIR]   (default 31, .build/release)
set -eu
RUNS=${1:-31}
BIN=${2:-.build/release}/transit
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
python3 - "$TMP/stations.csv" <<'PY'
import sys
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write("area,line,station,operator,line_name,station_name,station_name_en,valid_from,valid_until\n")
    for i in range(7000):
        f.write(f"{i % 4},{i // 256 % 256:X},{i % 256:X},Operator {i % 37},Line {i % 101},駅{i:04d},Station {i:04d},,\n")
PY
export XDG_DATA_HOME="$TMP/empty"
python3 - "$RUNS" "$ROOT/$BIN" "$ROOT" "$TMP/stations.csv" <<'PY'
import statistics, subprocess, sys, time
runs, transit, root, table = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
base = [transit, "scan", "--config", f"{root}/plugins.conf", "--card", f"{root}/samples/suica.json"]
def median(args):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
subprocess.run(base + ["--stations", table], check=True, stdout=subprocess.DEVNULL)  # warm the page cache
without, with_table = median(base), median(base + ["--stations", table])
print(f"scan without a table: {without:.1f} ms (median of {runs})")
print(f"scan with a 7,000-row table: {with_table:.1f} ms (median of {runs})")
print(f"the table's cost: {with_table - without:.1f} ms")
PY
