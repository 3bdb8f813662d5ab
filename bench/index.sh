#!/usr/bin/env bash
# Layer 1 index benchmark on a real corpus (default: the Go distribution's
# src committed into a temporary repository).
#
#   bench/index.sh [RUNS] [CORPUS_DIR]
#
# Reports medians over RUNS (default 5) of: a full index from an empty store,
# an incremental index after a one-file commit, the store's size, and peak
# RSS of each. The same runs time `git cat-file --batch` over every blob as a
# floor for reading the tree.
source "$(dirname "$0")/lib.sh"
runs=${1:-5}
corpus=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
gs="$work/git-speed"
if [ -z "$corpus" ]; then corpus="$work/goroot"; goroot_corpus "$corpus"; fi
cd "$corpus"
files=$(git ls-files | wc -l)
echo "corpus: $corpus ($files files), $runs runs, $(nproc) cores"

packs_mark "$work/packs"
for i in $(seq "$runs"); do
  # Baseline: read and parse the same files on the same workers, nothing
  # else: code with tree-sitter, data formats with their extractors' parsers
  # (docs/live.md); and code alone.
  timed "$work/parse" "$gs" index --parse-only
  timed "$work/code" "$gs" index --parse-only --code-only
  # Full index from an empty store, its objects deleted too.
  empty_store "$work/packs"
  timed "$work/full" "$gs" index
  # Incremental: commit a one-line change to one file, index again.
  f=$(git ls-files '*.go' | sed -n '100p'); [ -n "$f" ] || f=$(git ls-files | head -1)
  echo "// bench change $i" >> "$f"
  git -c gc.auto=0 -c user.name=bench -c user.email=bench@example.com commit -qam "bench $i"
  timed "$work/incr" "$gs" index
  "$gs" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["store"]["bytes"])' >> "$work/store"
  timed "$work/catfile" sh -c "git ls-tree -r HEAD | awk '\$2==\"blob\"{print \$3}' | git cat-file --batch >/dev/null"
done
git reset -q --hard "HEAD~$runs"

parse=$(cut -d' ' -f1 "$work/parse" | median); parserss=$(cut -d' ' -f2 "$work/parse" | median)
full=$(cut -d' ' -f1 "$work/full" | median); fullrss=$(cut -d' ' -f2 "$work/full" | median)
incr=$(cut -d' ' -f1 "$work/incr" | median); incrrss=$(cut -d' ' -f2 "$work/incr" | median)
cat=$(cut -d' ' -f1 "$work/catfile" | median)
store=$(median < "$work/store")
echo "parse-only:        median ${parse} s, peak RSS $((${parserss%.*}/1024)) MiB   (runs: $(cut -d' ' -f1 "$work/parse" | tr '\n' ' '))"
echo "full index:        median ${full} s, peak RSS $((${fullrss%.*}/1024)) MiB   (runs: $(cut -d' ' -f1 "$work/full" | tr '\n' ' '))"
echo "incremental index: median ${incr} s, peak RSS $((${incrrss%.*}/1024)) MiB   (runs: $(cut -d' ' -f1 "$work/incr" | tr '\n' ' '))"
parsecpu=$(cut -d' ' -f3 "$work/parse" | median); fullcpu=$(cut -d' ' -f3 "$work/full" | median)
echo "full / parse-only: $(ratio "$full" "$parse")x wall, $(ratio "$fullcpu" "$parsecpu")x CPU (CPU medians ${fullcpu} s / ${parsecpu} s)    full / incremental: $(python3 -c "print(round($full/$incr, 1))")x"
codecpu=$(cut -d' ' -f3 "$work/code" | median)
echo "full / parse-only of code alone (--code-only): $(ratio "$full" "$(cut -d' ' -f1 "$work/code" | median)")x wall, $(ratio "$fullcpu" "$codecpu")x CPU"
python3 - "$gs" <<'PY'
import json, subprocess, sys
r = json.loads(subprocess.run([sys.argv[1], "index", "--parse-only"], capture_output=True, text=True).stdout)
print(f"parsed {r['parsed']} files, {r['bytes']/1e6:.1f} MB of source ({r['data']} files, {r['data_bytes']/1e6:.1f} MB, of data formats)")
PY
echo "cat-file --batch of every blob: median ${cat} s"
echo "store size after the incremental run: median $((${store%.*}/1024)) KiB"
