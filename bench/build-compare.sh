#!/usr/bin/env bash
# A full build against parse-only, this checkout beside a baseline binary,
# on each corpus given: a git repository, indexed at its HEAD or at the
# commit or tree REV after an @.
#
#   bench/build-compare.sh BASELINE_BINARY RUNS CORPUS[@REV]...
#
# e.g. bench/build-compare.sh /tmp/git-speed-main 3 ../goroot ../kubernetes@k8s-v1.36.0-tree
# For each corpus and binary, medians over RUNS of the CPU time (user +
# system, git included; on a shared machine it moves less than wall time
# with the neighbours' load) and the peak RSS of:
#   - parse-only: every file the build reads, parsed with the parser its
#     extractor is built on (tree-sitter for code; goccy/go-yaml,
#     encoding/json, encoding/xml and go-toml for those data formats), no
#     facts, no store (docs/live.md);
#   - parse-only --code-only: tree-sitter alone (the definition before);
#   - full: a full index from an empty store (its objects deleted too, see
#     empty_store in lib.sh).
# The runs of both binaries alternate, so the machine's load falls on both
# alike. A full build of each binary must store the same files (facts,
# graph, terms; all but the build's time): the script says so, or fails.
# A change that alters a stored format on purpose (and bumps its version)
# runs with FORMAT_CHANGED=1: the stores are then only reported as differing.
source "$(dirname "$0")/lib.sh"
base=${1:?usage: bench/build-compare.sh BASELINE_BINARY RUNS CORPUS[@REV]...}
runs=${2:?runs}
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
cp "$base" "$work/base"
cpu() { cut -d' ' -f3 "$1" | median; }
rss() { local k; k=$(cut -d' ' -f2 "$1" | median); echo "$((${k%.*}/1024))"; }
for arg in "$@"; do
  corpus=${arg%@*}; rev=HEAD
  if [ "$corpus" != "$arg" ]; then rev=${arg##*@}; fi
  cd "$corpus"
  name=$(basename "$corpus")
  packs_mark "$work/$name.packs"
  for i in $(seq "$runs"); do
    for b in base git-speed; do
      timed "$work/$name.$b.parse" "$work/$b" index --parse-only --rev "$rev"
      if [ "$b" = base ] && ! "$work/base" index --parse-only --code-only --rev "$rev" >/dev/null 2>&1; then
        tail -1 "$work/$name.$b.parse" >> "$work/$name.$b.code" # a baseline whose parse-only is code only
      else
        timed "$work/$name.$b.code" "$work/$b" index --parse-only --code-only --rev "$rev"
      fi
      empty_store "$work/$name.packs"
      timed "$work/$name.$b.full" "$work/$b" index --rev "$rev"
      # everything stored but the build's time (the meta file of the tree)
      git ls-tree -r refs/speed/index | grep -v '/meta$' | git hash-object --stdin > "$work/$name.$b.tree"
    done
  done
  if ! cmp -s "$work/$name.base.tree" "$work/$name.git-speed.tree"; then
    echo "$name: stores differ (listings: $(cat "$work/$name.base.tree") (baseline) and $(cat "$work/$name.git-speed.tree"))" >&2
    [ -n "${FORMAT_CHANGED:-}" ] || exit 1
  fi
  same="same store, listing $(cut -c1-12 "$work/$name.base.tree")"
  cmp -s "$work/$name.base.tree" "$work/$name.git-speed.tree" || same="stores differ, FORMAT_CHANGED"
  echo "$name ($("$work/git-speed" index --parse-only --rev "$rev" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["parsed"], "files parsed,", r["data"], "of them data")'); CPU s, medians of $runs; $same)"
  for b in base git-speed; do
    p=$(cpu "$work/$name.$b.parse"); c=$(cpu "$work/$name.$b.code"); f=$(cpu "$work/$name.$b.full")
    printf '  %-9s full %6s   parse-only %6s (%sx)   code-only %6s (%sx)   full wall %s s   peak RSS full %s MiB, parse-only %s MiB\n' \
      "$b" "$f" "$p" "$(ratio "$f" "$p")" "$c" "$(ratio "$f" "$c")" "$(cut -d' ' -f1 "$work/$name.$b.full" | median)" "$(rss "$work/$name.$b.full")" "$(rss "$work/$name.$b.parse")"
  done
done
