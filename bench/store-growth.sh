#!/usr/bin/env bash
# How the refs/speed store grows over one-file commits.
#
#   bench/store-growth.sh [COMMITS] [CORPUS_DIR]
#
# Indexes the corpus (default: the Go distribution's src), then makes
# COMMITS (default 50) commits that each change one file and indexes after
# each, printing the store's size (objects reachable from refs/speed, their
# bytes as stored) and the growth per commit, and the object database's
# loose objects and packs before and after (git-speed consolidates them
# past 512 loose objects or 16 packs; GS_BIN=path runs another binary, for
# example an older build, as the baseline).
source "$(dirname "$0")/lib.sh"
n=${1:-50}
corpus=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
gs=${GS_BIN:-"$work/git-speed"}
if [ -z "$corpus" ]; then corpus="$work/goroot"; goroot_corpus "$corpus"; fi
cd "$corpus"
size() { "$gs" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["store"]["bytes"])'; }
odb() { git count-objects -v | awk '/^count:/ {c=$2} /^size:/ {s=$2} /^packs:/ {p=$2} /^size-pack:/ {sp=$2} END {printf "%d loose objects (%d KiB), %d packs (%d KiB)", c, s, p, sp}'; }
git config gc.auto 0
git for-each-ref --format='%(refname)' refs/speed/ | xargs -r -n1 git update-ref -d
"$gs" index -q
first=$(size)
odb_first=$(odb)
: > "$work/updates"
mapfile -t gofiles < <(git ls-files '*.go' | awk 'NR % 97 == 0')
for i in $(seq "$n"); do
  f=${gofiles[$((i % ${#gofiles[@]}))]}
  echo "// growth $i" >> "$f"
  git -c user.name=bench -c user.email=bench@example.com commit -qam "growth $i"
  /usr/bin/time -f '%e' -a -o "$work/updates" "$gs" index -q
done
last=$(size)
odb_last=$(odb)
git reset -q --hard "HEAD~$n"
echo "store after the first index: $((first/1024)) KiB"
echo "store after $n one-file commits: $((last/1024)) KiB"
echo "object database after the first index: $odb_first"
echo "object database after $n one-file commits: $odb_last"
echo "one-file update: median $(median < "$work/updates") s, slowest $(sort -n "$work/updates" | tail -1) s"
echo "growth: $(((last-first)/1024)) KiB in all, $(((last-first)/n)) bytes per commit ($(python3 -c "print(round(100*($last-$first)/$n/$first, 3))") % of the first index per commit)"
