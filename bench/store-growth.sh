#!/usr/bin/env bash
# How the refs/speed store grows over one-file commits.
#
#   bench/store-growth.sh [COMMITS] [CORPUS_DIR]
#
# Indexes the corpus (default: the Go distribution's src), then makes
# COMMITS (default 50) commits that each change one file and indexes after
# each, printing the store's size (objects reachable from refs/speed, their
# bytes as stored) and the growth per commit.
source "$(dirname "$0")/lib.sh"
n=${1:-50}
corpus=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
gs="$work/git-speed"
if [ -z "$corpus" ]; then corpus="$work/goroot"; goroot_corpus "$corpus"; fi
cd "$corpus"
size() { "$gs" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["store"]["bytes"])'; }
git for-each-ref --format='%(refname)' refs/speed/ | xargs -r -n1 git update-ref -d
"$gs" index -q
first=$(size)
mapfile -t gofiles < <(git ls-files '*.go' | awk 'NR % 97 == 0')
for i in $(seq "$n"); do
  f=${gofiles[$((i % ${#gofiles[@]}))]}
  echo "// growth $i" >> "$f"
  git -c user.name=bench -c user.email=bench@example.com commit -qam "growth $i"
  "$gs" index -q
done
last=$(size)
git reset -q --hard "HEAD~$n"
echo "store after the first index: $((first/1024)) KiB"
echo "store after $n one-file commits: $((last/1024)) KiB"
echo "growth: $(((last-first)/1024)) KiB in all, $(((last-first)/n)) bytes per commit ($(python3 -c "print(round(100*($last-$first)/$n/$first, 3))") % of the first index per commit)"
