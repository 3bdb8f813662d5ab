#!/usr/bin/env bash
# Indexing shared out: a one-machine build beside N part jobs and the merge
# that takes them, on clones of one repository pushed through a bare remote.
#
#   bench/shards.sh [N] [CORPUS_DIR]
#
# CORPUS_DIR (default: the Go distribution's src) is committed as it is.
# Prints each run's wall and CPU seconds and peak RSS, the files each
# parsed, and whether the merge stored the one-machine build's artifacts.
source "$(dirname "$0")/lib.sh"
n=${1:-4}
corpus=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
gs="$work/git-speed"
if [ -z "$corpus" ]; then corpus="$work/goroot"; goroot_corpus "$corpus"; fi
git clone -q --bare "$corpus" "$work/remote.git"
artifacts() { git ls-tree -r refs/speed/index trees | grep -v '/meta$'; git ls-tree -r refs/speed/index facts; }
parsed() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["parsed"], d.get("from_parts", 0))'; }
git clone -q "$work/remote.git" "$work/solo"
cd "$work/solo"
timed "$work/solo.t" "$gs" index -q
"$gs" index --json --force | parsed > "$work/solo.p"
artifacts > "$work/solo.a"
echo "one machine: $(cat "$work/solo.t") (wall s, max RSS KiB, CPU s); parsed $(cut -d' ' -f1 "$work/solo.p")"
for k in $(seq "$n"); do
  git clone -q "$work/remote.git" "$work/m$k"
  cd "$work/m$k"
  timed "$work/part$k.t" "$gs" index -q --shard "$k/$n"
  git push -q origin 'refs/speed/*:refs/speed/*'
  echo "part $k of $n: $(cat "$work/part$k.t")"
done
git clone -q "$work/remote.git" "$work/merge"
cd "$work/merge"
git fetch -q origin 'refs/speed/*:refs/speed/*'
/usr/bin/time -f '%e %M %U %S' -o "$work/merge.tt" "$gs" index --json > "$work/merge.json"
read -r parsed from < <(parsed < "$work/merge.json")
echo "merge: $(awk '{printf "%s %s %.2f", $1, $2, $3 + $4}' "$work/merge.tt"); parsed $parsed, from parts $from"
if cmp -s <(artifacts) "$work/solo.a"; then echo "merge stores the one-machine build's artifacts: identical"; else echo "merge differs from the one-machine build"; exit 1; fi
