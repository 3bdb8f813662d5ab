#!/usr/bin/env bash
# Graph quality against the languages' own resolvers: for every checkout
# given, runs the reference-graph oracle and `git speed graph --json`
# (through the oracles' score.py) and prints a markdown table of
# precision and recall per repository.
#
#   bench/graph-quality.sh CHECKOUT[:LANG] ...
#
# LANG is go, ts (TypeScript and JavaScript) or py; without it, the
# language with the most source files of the checkout. The oracles live in
# ../shared/oracles beside the project (README there), or where $ORACLES
# says. The checkouts are the caller's: nothing is fetched, copied or
# committed here; `git speed index` writes its refs/speed into each.
source "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
oracles=${ORACLES:-$root/../shared/oracles}
[ -f "$oracles/score.py" ] || oracles=$root/../../shared/oracles
if [ ! -f "$oracles/score.py" ]; then
  echo "graph-quality: no oracles at \$ORACLES or ../shared/oracles (score.py not found)" >&2
  exit 2
fi
if [ $# -eq 0 ]; then
  echo "usage: bench/graph-quality.sh CHECKOUT[:go|ts|py] ..." >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
export PATH="$work:$PATH"

# majority_lang DIR: the oracle language with the most tracked source files.
majority_lang() {
  git -C "$1" ls-files | awk '
    /\.go$/ {go++} /\.py$/ {py++} /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/ {ts++}
    END {best="go"; n=go+0; if (py+0 > n) {best="py"; n=py}; if (ts+0 > n) {best="ts"}; print best}'
}

echo "| repository | language | commit | oracle edges | git-speed edges | precision | recall | F1 | seconds |"
echo "|---|---|---|---|---|---|---|---|---|"
status=0
for arg in "$@"; do
  dir=$arg lang=
  if [[ $arg == *:* ]]; then dir=${arg%:*} lang=${arg##*:}; fi
  if ! git -C "$dir" rev-parse --git-dir >/dev/null 2>&1; then
    echo "graph-quality: $dir: not a git checkout" >&2
    status=1
    continue
  fi
  dir=$(cd "$dir" && pwd)
  [ -n "$lang" ] || lang=$(majority_lang "$dir")
  start=$(date +%s)
  if ! (cd "$oracles" && python3 score.py --checkout "$dir" --lang "$lang" --sample 0) > "$work/score.json" 2> "$work/err"; then
    echo "graph-quality: $dir: $(tail -c 300 "$work/err")" >&2
    status=1
    continue
  fi
  secs=$(( $(date +%s) - start ))
  python3 - "$work/score.json" "$(basename "$dir")" "$lang" "$(git -C "$dir" rev-parse --short HEAD)" "$secs" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
name, lang, commit, secs = sys.argv[2:6]
o = d.get("oracle", {})
want = o.get("edges_scored", o.get("edges", ""))
print(f"| {name} | {lang} | {commit} | {want} | {d['candidate_edges_between_oracle_nodes']} | "
      f"{d['precision']:.3f} | {d['recall']:.3f} | {d['f1']:.3f} | {secs} |")
PY
done
exit $status
