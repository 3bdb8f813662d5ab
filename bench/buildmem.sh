#!/usr/bin/env bash
# Peak memory of a full build, beside a baseline binary, in the same runs.
#
#   bench/buildmem.sh CORPUS REV BASELINE_BINARY [RUNS]
#
# For RUNS rounds (default 3), from an empty store each time: parse-only,
# a full index with the baseline binary (e.g. one built from main), a full
# index with this checkout's binary. Reports medians of peak RSS and CPU
# time (user + system, git included; on a shared machine CPU time moves
# less than wall time with the neighbours' load), the full build against
# parse-only, and checks that both binaries stored the same artifacts (the
# ids of the facts tree and of every artifact of the indexed tree).
source "$(dirname "$0")/lib.sh"
corpus=${1:?usage: bench/buildmem.sh CORPUS REV BASELINE_BINARY [RUNS]}
rev=${2:?usage: bench/buildmem.sh CORPUS REV BASELINE_BINARY [RUNS]}
base=${3:?usage: bench/buildmem.sh CORPUS REV BASELINE_BINARY [RUNS]}
runs=${4:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
gs="$work/git-speed"
cd "$corpus"
empty() { git for-each-ref --format='%(refname)' refs/speed/ | xargs -r -n1 git update-ref -d; }
# stored: the ids of what an index stored (meta blobs hold times: left out)
stored() {
  echo "facts $(git rev-parse refs/speed/index:facts)"
  git ls-tree -r -d refs/speed/index trees | awk -F'\t' '{n = split($2, p, "/"); if (n == 4) print p[4], $1}' | awk '{print $1, $4}' | sort
}
echo "corpus: $corpus ($rev), $runs runs, $(nproc) cores"
for i in $(seq "$runs"); do
  timed "$work/parse" "$gs" index --parse-only --rev "$rev"
  empty; timed "$work/base" "$base" index --rev "$rev"; stored > "$work/stored.base"
  empty; timed "$work/new" "$gs" index --rev "$rev"; stored > "$work/stored.new"
  cmp -s "$work/stored.base" "$work/stored.new" || { echo "round $i: the two binaries stored different artifacts:"; diff "$work/stored.base" "$work/stored.new"; exit 1; }
done
report() {
  local name=$1 f=$2
  local wall rss cpu
  wall=$(cut -d' ' -f1 "$f" | median); rss=$(cut -d' ' -f2 "$f" | median); cpu=$(cut -d' ' -f3 "$f" | median)
  echo "$name peak RSS $((${rss%.*}/1024)) MiB, CPU ${cpu} s, wall ${wall} s   (RSS MiB: $(awk '{printf "%d ", $2/1024}' "$f"); CPU s: $(cut -d' ' -f3 "$f" | tr '\n' ' '))"
}
report "parse-only:    " "$work/parse"
report "full, baseline:" "$work/base"
report "full, this:    " "$work/new"
pc=$(cut -d' ' -f3 "$work/parse" | median); pw=$(cut -d' ' -f1 "$work/parse" | median)
echo "full / parse-only, CPU: baseline $(ratio "$(cut -d' ' -f3 "$work/base" | median)" "$pc")x, this $(ratio "$(cut -d' ' -f3 "$work/new" | median)" "$pc")x; wall: baseline $(ratio "$(cut -d' ' -f1 "$work/base" | median)" "$pw")x, this $(ratio "$(cut -d' ' -f1 "$work/new" | median)" "$pw")x"
echo "stored artifacts: identical in every round"
