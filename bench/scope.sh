#!/usr/bin/env bash
# Scope of one task on kubernetes (../shared/bench/make-k8s-corpus.sh), this
# checkout beside a baseline build, in the same loop.
#
#   bench/scope.sh CORPUS/kubernetes [RUNS] [BASELINE_REV]
#
# The task touches pkg/kubelet/kubelet.go (as in bench/live.sh). Per run and
# binary: the first scope of the tree (its spec alignment computed and
# stored: the store is set back to how the index left it, the kept scope
# records are emptied) and the same scope again (answered from its record
# when the build keeps them); then the map --budget 2000, computed (its cache emptied).
# Medians over RUNS (default 5) of wall and CPU (user + system) seconds: on
# a shared machine CPU time moves less with the neighbours' load. The
# artifacts of both binaries are compared byte for byte.
source "$(dirname "$0")/lib.sh"
k8s=${1:?usage: bench/scope.sh CORPUS/kubernetes [RUNS] [BASELINE_REV]}
runs=${2:-5}
baseline=${3:-main}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
build_git_speed "$work"
mkdir "$work/base-src"
git -C "$root" archive "$baseline" | tar -x -C "$work/base-src"
(cd "$work/base-src" && go build -o "$work/baseline" ./cmd/git-speed && rm -rf "$work/base-src")
cd "$k8s"
base=k8s-v1.36.0-tree
speed=.speed-scope-bench
cleanup() { rm -rf "$k8s/$speed" "$work"; }
trap cleanup EXIT
grep -qx "/$speed/" .git/info/exclude 2>/dev/null || echo "/$speed/" >> .git/info/exclude
mkdir -p "$speed/features/bench/tasks"
# A spec of this run's own, so that no alignment is stored for it yet.
printf '# Bench\n\n## Requirements\n\n- REQ-1: the kubelet syncs pods (run %s).\n' "$$-$(date +%s)" > "$speed/features/bench/spec.md"
printf 'id = "1"\ntitle = "Sync pods faster"\ndescription = "Make the kubelet sync loop cheaper."\nfiles_touched = ["pkg/kubelet/kubelet.go"]\nrequirements = ["REQ-1"]\n' > "$speed/features/bench/tasks/1.toml"
"$work/git-speed" index --rev "$base" >/dev/null
fresh=$(git rev-parse refs/speed/index)
out="$speed/features/bench/context/task-1"
for i in $(seq "$runs"); do
  for b in baseline git-speed; do
    git update-ref refs/speed/index "$fresh"
    rm -rf "$(git rev-parse --git-common-dir)/speed/cache/scopes"
    timed "$work/$b.first" "$work/$b" --speed-dir "$speed" scope bench 1 --rev "$base"
    timed "$work/$b.again" "$work/$b" --speed-dir "$speed" scope bench 1 --rev "$base"
    rm -rf "$(git rev-parse --git-common-dir)/speed/cache/maps"
    timed "$work/$b.map" "$work/$b" map --budget 2000 --rev "$base"
    mkdir -p "$work/out-$b" && cp "$out"/*.json "$work/out-$b/"
  done
  diff -r "$work/out-baseline" "$work/out-git-speed" >/dev/null || { echo "scope artifacts differ from the baseline's" >&2; exit 1; }
done
git update-ref refs/speed/index "$fresh"
col() { cut -d' ' -f"$2" "$work/$1" | median; }
ms() { awk -v s="$1" 'BEGIN {printf "%4d ms", s * 1000}'; }
echo "kubernetes, scope of one task (pkg/kubelet/kubelet.go), medians of $runs runs: wall, CPU (user+sys), peak RSS"
for m in first again map; do
  for b in baseline git-speed; do
    printf '%-6s %-10s wall %s  cpu %s  rss %4d MiB\n' "$m" "$b" "$(ms "$(col "$b.$m" 1)")" "$(ms "$(col "$b.$m" 3)")" "$(( $(col "$b.$m" 2 | cut -d. -f1) / 1024 ))"
  done
done
