#!/usr/bin/env bash
# The scope report of a kubernetes task (../shared/bench/make-k8s-corpus.sh)
# in headless Chromium, beside an empty page in the same browser, same loop.
#
#   bench/report.sh CORPUS/kubernetes [RUNS]
#
# The task touches pkg/kubelet/kubelet.go (as in bench/scope.sh). Prints the
# page's size and, as medians over RUNS (default 5) loads of each page:
#   render: the page's own figure, performance.now() once its script has
#           inflated the embedded JSON, drawn the tables and laid them out
#           (<html data-render-ms>), i.e. from navigation to a drawn page;
#   inflate: the part of render spent inflating the JSON (data-inflate-ms);
#   wall:   the whole `chromium --headless=new --dump-dom` process;
#   cpu:    its user + system seconds, children included (moves less with
#           the neighbours' load than wall and render do).
# The baseline is an empty page whose script marks the same figure. Goals
# (issue 29): render <= 2 s, size <= 2 MB.
source "$(dirname "$0")/lib.sh"
k8s=${1:?usage: bench/report.sh CORPUS/kubernetes [RUNS]}
runs=${2:-5}
browser=$(command -v chromium || command -v chromium-browser) || { echo "bench/report.sh needs chromium (apt-get install chromium)" >&2; exit 1; }
work=$(mktemp -d)
build_git_speed "$work"
cd "$k8s"
base=k8s-v1.36.0-tree
speed=.speed-report-bench
cleanup() { rm -rf "$k8s/$speed" "$work"; }
trap cleanup EXIT
mkdir -p "$speed/features/bench/tasks"
printf '# Bench\n\n## Requirements\n\n- REQ-1: the kubelet syncs pods.\n' > "$speed/features/bench/spec.md"
printf 'id = "1"\ntitle = "Sync pods faster"\ndescription = "Make the kubelet sync loop cheaper."\nfiles_touched = ["pkg/kubelet/kubelet.go"]\nrequirements = ["REQ-1"]\n' > "$speed/features/bench/tasks/1.toml"
"$work/git-speed" index --rev "$base" >/dev/null 2>&1
"$work/git-speed" --speed-dir "$speed" report scope bench 1 --rev "$base" --out "$work/scope.html" 2>/dev/null || true
printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>empty</title></head><body><script>document.documentElement.dataset.renderMs = String(Math.round(performance.now()));</script></body></html>\n' > "$work/empty.html"
attr() { grep -o "data-$1=\"[0-9]*\"" | head -1 | grep -o '[0-9]\+'; }
load() { # load PAGE NAME: one load, appending render/inflate/wall figures
  local start end dom
  start=$(date +%s.%N)
  dom=$(/usr/bin/time -f '%U %S' -o "$work/time" "$browser" --headless=new --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/profile" --dump-dom "file://$1" 2>/dev/null)
  end=$(date +%s.%N)
  awk '{printf "%.2f\n", $1 + $2}' "$work/time" >> "$work/$2.cpu"
  grep -q 'data-render-ms' <<<"$dom" || { echo "$1 did not draw" >&2; exit 1; }
  attr render-ms <<<"$dom" >> "$work/$2.render"
  (attr inflate-ms <<<"$dom" || echo 0) >> "$work/$2.inflate"
  awk -v a="$start" -v b="$end" 'BEGIN {printf "%.2f\n", b - a}' >> "$work/$2.wall"
}
for i in $(seq "$runs"); do
  load "$work/empty.html" empty
  load "$work/scope.html" scope
done
size=$(wc -c < "$work/scope.html")
echo "scope report of kubelet.go's task: $size bytes ($(awk -v s="$size" 'BEGIN {printf "%.2f", s / 1048576}') MiB)"
for p in empty scope; do
  echo "$p page: render median $(median < "$work/$p.render") ms (runs: $(tr '\n' ' ' < "$work/$p.render")), inflate $(median < "$work/$p.inflate") ms, browser wall median $(median < "$work/$p.wall") s, browser CPU median $(median < "$work/$p.cpu") s"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
