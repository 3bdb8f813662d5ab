#!/usr/bin/env bash
# The live world model on a large corpus: what an agent pays after each
# change.
#
#   bench/live.sh CORPUS [RUNS]
#
# CORPUS is kubernetes (../shared/bench/make-k8s-corpus.sh: its tags
# k8s-v1.36.0-tree, k8s-onefile-tree and k8s-tenfile-tree) or any other
# repository, such as GOROOT/src committed into one (bench/index.sh makes
# it): then the base is HEAD's tree, the one-file tree appends a comment to
# LIVE_EDIT (default net/http/server.go, else the 100th Go file) and the
# ten-file tree to it and nine more Go files spread over the tree, as the
# kubernetes script does.
#
# Medians over RUNS (default 3) of: parse-only (baseline: code parsed with
# tree-sitter, data formats with their extractors' parsers; also code only,
# --code-only; docs/live.md) against a full
# index with its peak RSS; the one-file and ten-file incremental index of
# the corpus' follow-up trees, beside the floor of a one-file update (git
# diff-tree plus reading the changed blob); a one-file update that adds a
# function (its importers are resolved again); a --worktree update after
# editing one file, beside writing the work tree as a tree alone (on a copy
# of the index: ls-files of what differs, update-index of those paths,
# write-tree); scope of one task touching the edited file, first and again;
# map --budget 2000, computed and cached.
source "$(dirname "$0")/lib.sh"
corpus=${1:?usage: bench/live.sh CORPUS [RUNS]}
runs=${2:-3}
work=$(mktemp -d)
build_git_speed "$work"
gs="$work/git-speed"
cd "$corpus"
# comment_tree BASE FILE...: a tree of BASE with a comment line appended to
# each FILE (the blobs written to the object database).
comment_tree() {
  local base=$1 idx p oid; shift
  idx=$(mktemp)
  GIT_INDEX_FILE=$idx git read-tree "$base"
  for p in "$@"; do
    oid=$( (git cat-file blob "$base:$p"; echo "// bench change") | git hash-object -w --stdin)
    GIT_INDEX_FILE=$idx git update-index --cacheinfo "100644,$oid,$p"
  done
  GIT_INDEX_FILE=$idx git write-tree
  rm -f "$idx"
}
if git rev-parse -q --verify k8s-v1.36.0-tree >/dev/null; then
  name=kubernetes base=k8s-v1.36.0-tree edited=pkg/kubelet/kubelet.go
  onetree=k8s-onefile-tree tentree=k8s-tenfile-tree
  req="the kubelet syncs pods." title="Sync pods faster" desc="Make the kubelet sync loop cheaper."
else
  name=$(basename "$corpus") base=$(git rev-parse 'HEAD^{tree}')
  gofiles=$(git ls-tree -r --name-only "$base" | grep '\.go$' || true)
  edited=${LIVE_EDIT:-net/http/server.go}
  git cat-file -e "$base:$edited" 2>/dev/null || edited=$(sed -n 100p <<<"$gofiles")
  [ -n "$edited" ] || { echo "live.sh: $corpus has no file to edit (set LIVE_EDIT)" >&2; exit 1; }
  n=$(wc -l <<<"$gofiles")
  others=$(awk -v n="$n" 'BEGIN {for (i = 1; i <= 9; i++) print int(i * n / 10)}' | while read -r i; do sed -n "${i}p" <<<"$gofiles"; done | grep -vx "$edited")
  onetree=$(comment_tree "$base" "$edited")
  # shellcheck disable=SC2086 # one path per word
  tentree=$(comment_tree "$base" "$edited" $others)
  req="$edited serves its callers." title="Speed up $edited" desc="Make the code of $edited cheaper."
fi
restore() { git cat-file blob "$base:$edited" > "$edited"; rm -rf "$corpus/.speed-bench"; rm -rf "$work"; }
trap restore EXIT
# A feature whose one task touches the edited file; kept out of the snapshots.
grep -qx '/.speed-bench/' .git/info/exclude 2>/dev/null || echo '/.speed-bench/' >> .git/info/exclude
mkdir -p .speed-bench/features/bench/tasks
printf '# Bench\n\n## Requirements\n\n- REQ-1: %s\n' "$req" > .speed-bench/features/bench/spec.md
printf 'id = "1"\ntitle = "%s"\ndescription = "%s"\nfiles_touched = ["%s"]\nrequirements = ["REQ-1"]\n' "$title" "$desc" "$edited" > .speed-bench/features/bench/tasks/1.toml
# A tree where the edited file gains a function: a change of definitions,
# which moves the out-edges of every file reading its package.
deftree=$(
  idx=$(mktemp); trap 'rm -f "$idx"' RETURN
  blob=$( { git cat-file blob "$base:$edited"; printf '\nfunc speedBenchAdded() int { return 1 }\n'; } | git hash-object -w --stdin)
  GIT_INDEX_FILE=$idx git read-tree "$base"
  GIT_INDEX_FILE=$idx git update-index --cacheinfo "100644,$blob,$edited"
  GIT_INDEX_FILE=$idx git write-tree
)
# floor of a one-file update: the diff and the changed blob
floor() {
  git diff-tree -r "$base" "$onetree" >/dev/null
  git cat-file blob "$onetree:$edited" >/dev/null
}
snapshot_only() {
  local idx; idx=$(mktemp)
  cp .git/index "$idx"
  GIT_INDEX_FILE=$idx git ls-files -z --others --modified --exclude-standard |
    GIT_INDEX_FILE=$idx git update-index --add --remove --replace -z --stdin
  GIT_INDEX_FILE=$idx git write-tree >/dev/null
  rm -f "$idx"
}
export base edited onetree
export -f floor snapshot_only
packs_mark "$work/packs"
for i in $(seq "$runs"); do
  timed "$work/parse" "$gs" index --parse-only --rev "$base"
  timed "$work/code" "$gs" index --parse-only --code-only --rev "$base"
  empty_store "$work/packs" # the refs and the objects of the run before
  timed "$work/full" "$gs" index --rev "$base"
  # The store with only the base indexed: the updates below that must start
  # from the base (the newest indexed tree) start from it again.
  fresh=$(git rev-parse refs/speed/index)
  timed "$work/floor" bash -c floor
  timed "$work/one" "$gs" index --rev "$onetree"
  timed "$work/ten" "$gs" index --rev "$tentree"
  git update-ref refs/speed/index "$fresh"
  timed "$work/def" "$gs" index --rev "$deftree"
  git update-ref refs/speed/index "$fresh"
  echo "// bench edit $i" >> "$edited"
  timed "$work/snap" bash -c snapshot_only
  timed "$work/wt" "$gs" index --worktree
  git cat-file blob "$base:$edited" > "$edited"
  # Scope: the first of the tree (the spec alignment is computed and
  # stored; the kept scope records emptied), then again (from its record). Map: computed (its cache emptied), then the same
  # map again, from the cache of rendered maps.
  rm -rf "$(git rev-parse --git-common-dir)/speed/cache/scopes"
  timed "$work/scope" "$gs" --speed-dir .speed-bench scope bench 1 --rev "$base"
  timed "$work/scope2" "$gs" --speed-dir .speed-bench scope bench 1 --rev "$base"
  rm -rf "$(git rev-parse --git-common-dir)/speed/cache/maps"
  timed "$work/map" "$gs" map --budget 2000 --rev "$base"
  timed "$work/map2" "$gs" map --budget 2000 --rev "$base"
done
med() { cut -d' ' -f1 "$work/$1" | median; }
ms() { awk -v s="$(med "$1")" 'BEGIN {printf "%d ms", s * 1000}'; }
rss() { echo "$(( $(cut -d' ' -f2 "$work/$1" | median | cut -d. -f1) / 1024 )) MiB"; }
runsof() { cut -d' ' -f1 "$work/$1" | tr '\n' ' '; }
cpu() { cut -d' ' -f3 "$work/$1" | median; }
echo "$name, medians of $runs runs (seconds per run in brackets); edited: $edited"
echo "parse-only (baseline)     $(med parse) s, peak RSS $(rss parse)   [$(runsof parse)]"
echo "parse-only, code only     $(med code) s   [$(runsof code)]"
echo "full index                $(med full) s, peak RSS $(rss full)   [$(runsof full)]"
echo "  full / parse-only       $(ratio "$(med full)" "$(med parse)")x wall, $(ratio "$(cpu full)" "$(cpu parse)")x CPU"
echo "  full / code only        $(ratio "$(med full)" "$(med code)")x wall, $(ratio "$(cpu full)" "$(cpu code)")x CPU"
echo "one-file floor (baseline) $(ms floor)   [$(runsof floor)]"
echo "one-file incremental      $(ms one)   [$(runsof one)]"
echo "ten-file incremental      $(ms ten)   [$(runsof ten)]"
echo "one definition added      $(ms def)   [$(runsof def)]"
echo "work tree as a tree alone $(ms snap)   [$(runsof snap)]"
echo "one-file --worktree       $(ms wt)   [$(runsof wt)]"
echo "scope of one task, first  $(ms scope)   [$(runsof scope)]"
echo "scope of one task, again  $(ms scope2)   [$(runsof scope2)]"
echo "map --budget 2000         $(ms map)   [$(runsof map)]"
echo "the same map, cached      $(ms map2)   [$(runsof map2)]"
