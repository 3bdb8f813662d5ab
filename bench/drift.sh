#!/usr/bin/env bash
# No drift: replays a real repository's history through git-speed's
# updates, commit by commit, and at checkpoints compares the store with a
# rebuild of the tree from nothing (git speed verify --index).
#
#   bench/drift.sh [COMMITS] [EVERY] REPO...
#
# REPO is a git folder or bare mirror; each is cloned into a temporary
# folder (DATA=DIR keeps the clones there instead). The last
# COMMITS (default 300) first-parent commits of its HEAD are indexed oldest
# first, each from the one before (in place where that applies); every
# EVERY-th (default 25) and the last are checked. Prints, per repository,
# the updates in place, the checkpoints and the artifacts that differed
# (the goal: none), and the time per update beside a full build's.
source "$(dirname "$0")/lib.sh"
n=${1:-300}; every=${2:-25}; shift 2 || true
[ $# -gt 0 ] || { echo "usage: bench/drift.sh [COMMITS] [EVERY] REPO..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
gs="$work/git-speed"
data=${DATA:-$work/data}
mkdir -p "$data"
status=0
for src in "$@"; do
  name=$(basename "$(dirname "$src")")
  [ "$(basename "$src")" = repo ] || name=$(basename "$src" .git)
  dir="$data/$name"
  rm -rf "$dir"
  git clone -q --no-checkout "$src" "$dir"
  cd "$dir"
  git config gc.auto 0
  mapfile -t commits < <(git rev-list --first-parent -n "$n" HEAD | tac)
  inplace=0; checked=0; differ=0; i=0
  : > "$work/updates"
  for c in "${commits[@]}"; do
    i=$((i+1))
    out=$(/usr/bin/time -f '%e' -o "$work/t" "$gs" index --json --rev "$c" 2>/dev/null) || { echo "$name: index of $c failed" >&2; status=1; continue; }
    [ "$i" -gt 1 ] && cat "$work/t" >> "$work/updates"
    case $out in *'"in_place": true'*) inplace=$((inplace+1));; esac
    if [ $((i % every)) -eq 0 ] || [ "$i" -eq "${#commits[@]}" ]; then
      checked=$((checked+1))
      if ! "$gs" verify --index --rev "$c" > "$work/diff" 2>&1; then
        differ=$((differ+1)); status=1
        echo "$name: commit $c ($i of ${#commits[@]}) drifted:"; cat "$work/diff"
      fi
    fi
  done
  last=${commits[${#commits[@]}-1]}
  git for-each-ref --format='%(refname)' refs/speed/ | xargs -r -n1 git update-ref -d
  /usr/bin/time -f '%e' -o "$work/full" "$gs" index -q --rev "$last"
  files=$(git ls-tree -r "$last" | wc -l)
  echo "$name: $files files; ${#commits[@]} commits replayed, $inplace updated in place, $checked checkpoints, $differ with differing artifacts"
  echo "$name: median update $(median < "$work/updates") s; full build of the last tree $(cat "$work/full") s (same run)"
  cd - >/dev/null
done
exit $status
