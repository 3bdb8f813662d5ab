#!/usr/bin/env bash
# Layer 1 on kubernetes, built by ../shared/bench/make-k8s-corpus.sh (a tree
# with no history: tags k8s-v1.36.0-tree, k8s-onefile-tree, k8s-tenfile-tree).
#
#   bench/k8s.sh CORPUS/kubernetes [RUNS]
#
# Medians over RUNS (default 3) of: the parse-only baseline, a full index
# from an empty store, and the incremental index of the one-file and
# ten-file follow-up trees; with peak RSS of each.
source "$(dirname "$0")/lib.sh"
k8s=${1:?usage: bench/k8s.sh CORPUS/kubernetes [RUNS]}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
gs="$work/git-speed"
cd "$k8s"
base=k8s-v1.36.0-tree
packs_mark "$work/packs"
for i in $(seq "$runs"); do
  timed "$work/parse" "$gs" index --parse-only --rev "$base"
  empty_store "$work/packs" # the refs and the objects of the run before
  timed "$work/full" "$gs" index --rev "$base"
  timed "$work/one" "$gs" index --rev k8s-onefile-tree
  timed "$work/ten" "$gs" index --rev k8s-tenfile-tree
done
report() { echo "$1: median $(cut -d' ' -f1 "$work/$2" | median) s, peak RSS $(( $(cut -d' ' -f2 "$work/$2" | median | cut -d. -f1) / 1024 )) MiB   (runs: $(cut -d' ' -f1 "$work/$2" | tr '\n' ' '))"; }
report "parse-only          " parse
cpu() { cut -d' ' -f3 "$work/$1" | median; }
report "full index          " full
report "one-file incremental" one
report "ten-file incremental" ten
echo "full / parse-only: $(ratio "$(cut -d' ' -f1 "$work/full" | median)" "$(cut -d' ' -f1 "$work/parse" | median)")x wall, $(ratio "$(cpu full)" "$(cpu parse)")x CPU (CPU medians $(cpu full) s / $(cpu parse) s)"
"$gs" index --parse-only --rev "$base" | python3 -c 'import json,sys; r=json.load(sys.stdin); print("parse-only covers %d files, %.1f MB of source" % (r["parsed"], r["bytes"]/1e6))'
"$gs" status --json | python3 -c 'import json,sys; print("store:", json.load(sys.stdin)["store"])'
