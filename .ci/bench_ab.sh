#!/usr/bin/env bash
# Before/after benchmark of a change: builds the criterion benches of
# api-core-tests at BASE (a git worktree with its own target directory)
# and at the working tree, then runs them alternately, ROUNDS times each,
# so both sides share the machine's state; prints every run's medians and,
# per benchmark, the median of the rounds and the new/old ratio.
# Not part of CI (benchmarks are not gates); BENCHMARKS.md cites its runs.
# Usage: .ci/bench_ab.sh BASE [ROUNDS] [FILTER]
#   e.g. .ci/bench_ab.sh 4850638 3 '^(registry|apply)'
# BENCH_AB_BENCHES names the bench targets (default: runtime apply), e.g.
#   BENCH_AB_BENCHES=cel .ci/bench_ab.sh ff8b3ab 3 '^validate'
# BENCH_AB_COUNT=get:N (the `server` bench's SERVER_BENCH_LOOP) counts
# instructions instead of timing: each side makes N and 2N requests
# under valgrind's callgrind (this machine's perf has no hardware
# counters), and the difference over N is one request's
# instructions (stable to a fraction of a percent where times spread by
# tens), e.g. BENCH_AB_BENCHES=server BENCH_AB_COUNT=get:20000 .ci/bench_ab.sh a385187
# A bench newer than BASE runs on both sides: its file is copied from the
# working tree into BASE's (and declared in its Cargo.toml), so the same
# bench code measures the old library and the new one.
set -euo pipefail

base=$1
rounds=${2:-3}
filter=${3:-'^(registry|apply)'}
root=$(git rev-parse --show-toplevel)
old_tree=$(mktemp -d)
old_target=${BENCH_AB_TARGET:-/tmp/bench-ab-target}
log=$(mktemp)
cleanup() {
  git -C "$root" worktree remove --force "$old_tree" 2>/dev/null || true
  rm -f "$log"
}
trap cleanup EXIT

git -C "$root" worktree add --detach "$old_tree" "$base" > /dev/null
for b in ${BENCH_AB_BENCHES:-runtime apply}; do
  if [ ! -e "$old_tree/api-core-tests/benches/$b.rs" ] && [ -e "$root/api-core-tests/benches/$b.rs" ]; then
    cp "$root/api-core-tests/benches/$b.rs" "$old_tree/api-core-tests/benches/$b.rs"
    printf '\n[[bench]]\nname = "%s"\nharness = false\n' "$b" >> "$old_tree/api-core-tests/Cargo.toml"
    # and the shared bench modules it may include that BASE lacks
    for m in "$root"/api-core-tests/benches/common/*.rs; do
      [ -e "$old_tree/api-core-tests/benches/common/${m##*/}" ] ||
        cp "$m" "$old_tree/api-core-tests/benches/common/"
    done
    # and the dev-dependencies it may use that BASE's lacks (lines copied)
    python3 - "$root/api-core-tests/Cargo.toml" "$old_tree/api-core-tests/Cargo.toml" <<'PY'
import re, sys, tomllib
new_path, old_path = sys.argv[1], sys.argv[2]
new_text, old_text = open(new_path).read(), open(old_path).read()
have = tomllib.loads(old_text).get("dev-dependencies", {})
lines = []
section = None
for line in new_text.splitlines():
    m = re.match(r"\[(.*)\]\s*$", line)
    if m:
        section = m.group(1)
        continue
    m = re.match(r"([A-Za-z0-9_-]+)\s*=", line)
    if section == "dev-dependencies" and m and m.group(1) not in have:
        lines.append(line)
if lines:
    old_text = old_text.replace("[dev-dependencies]\n", "[dev-dependencies]\n" + "\n".join(lines) + "\n", 1)
    open(old_path, "w").write(old_text)
PY
    echo "bench $b: the working tree's code, also run against $base"
  fi
done
binaries() { # binaries DIR TARGET: the bench executables cargo builds
  local benches=()
  for b in ${BENCH_AB_BENCHES:-runtime apply}; do benches+=(--bench "$b"); done
  (cd "$1" && CARGO_TARGET_DIR=$2 cargo bench -p api-core-tests "${benches[@]}" \
    --no-run --message-format=json 2> /dev/null) |
    python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["bench"]:
        print(m["executable"])'
}
mapfile -t old_bins < <(binaries "$old_tree" "$old_target")
mapfile -t new_bins < <(binaries "$root" "${CARGO_TARGET_DIR:-$root/target}")

if [ -n "${BENCH_AB_COUNT:-}" ]; then
  what=${BENCH_AB_COUNT%%:*}
  n=${BENCH_AB_COUNT##*:}
  count() { # count BIN N: instructions (user space) of N requests and the set-up
    (cd /tmp && SERVER_BENCH_LOOP="$what:$2" valgrind --tool=callgrind \
      --callgrind-out-file=/dev/null "$1" --bench 2>&1 >/dev/null) |
      awk '/Collected :/ {if ($NF > max) max = $NF} END {print max}'
  }
  for round in $(seq 1 "$rounds"); do
    for side in old new; do
      if [ "$side" = old ]; then bins=("${old_bins[@]}"); else bins=("${new_bins[@]}"); fi
      for bin in "${bins[@]}"; do
        case $bin in */server-*) ;; *) continue ;; esac
        one=$(count "$bin" "$n")
        two=$(count "$bin" $((2 * n)))
        echo "round $round $side $what: $(((two - one) / n)) instructions per request" | tee -a "$log"
      done
    done
  done
  python3 - "$log" <<'EOF'
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r"round \d+ (\w+) (\w+): (\d+)", line)
    if m:
        runs.setdefault(m.group(1), []).append(int(m.group(3)))
old, new = statistics.median(runs["old"]), statistics.median(runs["new"])
print(f"\ninstructions per request: old {old:.0f}, new {new:.0f}, new/old {new / old:.3f}")
EOF
  exit 0
fi

for round in $(seq 1 "$rounds"); do
  for side in old new; do
    if [ "$side" = old ]; then bins=("${old_bins[@]}"); else bins=("${new_bins[@]}"); fi
    echo "=== round $round $side" | tee -a "$log"
    for bin in "${bins[@]}"; do
      (cd /tmp && "$bin" --bench "$filter" --warm-up-time 1 --measurement-time 3 2>&1) |
        grep -E "^[a-z]|time:" | grep -v "^Benchmarking\|^Warning\|^Found" | tee -a "$log"
    done
  done
done

python3 - "$log" <<'EOF'
import re, statistics, sys
side = None; name = None; runs = {}
scale = {"ns": 1e-3, "µs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    m = re.match(r"=== round \d+ (\w+)", line)
    if m:
        side = m.group(1); continue
    m = re.match(r"^(.*?)\s*time:\s+\[\S+ \S+ (\S+) (\S+)", line)
    if not m:
        name = line.strip(); continue
    if m.group(1).strip():
        name = m.group(1).strip()
    runs.setdefault(name, {}).setdefault(side, []).append(float(m.group(2)) * scale[m.group(3)])
print(f"\n{'benchmark':58} {'old µs':>9} {'new µs':>9} {'new/old':>8}")
for name, sides in runs.items():
    if "old" in sides and "new" in sides:
        old, new = statistics.median(sides["old"]), statistics.median(sides["new"])
        print(f"{name:58} {old:9.1f} {new:9.1f} {new / old:8.2f}")
EOF
