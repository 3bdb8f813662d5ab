#!/usr/bin/env bash
# Runs the same commands with two git-speed binaries on clones of each
# repository and compares every byte they print on stdout and every
# artifact they write: the check that a change of structure (a refactor)
# changed no output.
#
#   bench/same-output.sh OLD_BINARY NEW_BINARY REPO...
#
# Each REPO is cloned twice into a temporary folder (one clone per
# binary, so no cache one binary keeps is read by the other). A feature
# of one task is written into each clone: the task touches the source file
# the last 30 commits changed most (tests aside). Commands: index, map, skeleton,
# graph, symbols, pack (text and JSON), align, scope (summary and JSON),
# render of every stage, context, session and memory commands, eval and
# eval --pack over a few commits. Prints "same" or the differing outputs,
# and exits 1 when anything differs.
source "$(dirname "$0")/lib.sh"
old=${1:?usage: bench/same-output.sh OLD_BINARY NEW_BINARY REPO...}
new=${2:?usage: bench/same-output.sh OLD_BINARY NEW_BINARY REPO...}
shift 2
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000 GIT_CONFIG_NOSYSTEM=1
bad=0
for repo in "$@"; do
  name=$(basename "$(cd "$repo" && pwd)")
  [ "$name" = repo ] && name=$(basename "$(dirname "$(cd "$repo" && pwd)")") # a mirror: owner+name/repo
  for side in old new; do
    git clone -q "$repo" "$work/$side-$name"
  done
  top="$work/old-$name"
  # The task's file: the source file the newest commit changed most.
  file=$(git -C "$top" log -30 --numstat --format= | awk '$3 ~ /\.(go|py|ts|js|rs|java)$/ && $3 !~ /test/ {print $1+$2, $3}' |
    sort -k1,1nr | head -1 | awk '{print $2}')
  [ -n "$file" ] && [ -f "$top/$file" ] || { echo "$name: no source file changed in the last 30 commits" >&2; continue; }
  word=$(grep -oE '[A-Z][A-Za-z0-9]{4,}' "$top/$file" | sort | uniq -c | sort -nr | head -1 | awk '{print $2}')
  for side in old new; do
    d="$work/$side-$name"
    mkdir -p "$d/.speed-same/features/f/tasks"
    printf '# Same\n\n## Requirements\n\n- REQ-1: %s keeps working.\n' "$word" > "$d/.speed-same/features/f/spec.md"
    printf 'id = "1"\ntitle = "Change %s"\ndescription = "Make %s handle the empty case."\nfiles_touched = ["%s"]\nrequirements = ["REQ-1"]\n' \
      "$word" "$word" "$file" > "$d/.speed-same/features/f/tasks/1.toml"
    bin=$old; [ $side = new ] && bin=$new
    out="$work/$side-$name.out"
    mkdir -p "$out"
    (
      cd "$d"
      r() { local tag=$1; shift; "$bin" "$@" > "$out/$tag" 2>/dev/null || echo "exit $?" >> "$out/$tag"; }
      s() { local tag=$1; shift; "$bin" --speed-dir .speed-same "$@" > "$out/$tag" 2>/dev/null || echo "exit $?" >> "$out/$tag"; }
      "$bin" index -q
      r map map --budget 1500
      r mapfocus map --budget 800 --focus "$file" --mention "$word"
      r skeleton skeleton "$file"
      r graph graph --json
      r symbols symbols "$word" --json
      r symtext symbols "$word"
      r pack pack "fix $word when the input is empty"
      r packjson pack --json --max-items 4 "$word" "$(basename "$file")"
      s align align f --json
      s scope scope f 1
      s scopejson scope f 1 --json
      for st in architect verifier developer reviewer coherence debugger; do s "render-$st" render "$st" f 1 --base HEAD~1; done
      r ctx context "make $word handle the empty case" --file "$file" --json
      r session-start session start --id s1 --task "fix $word" --file "$file"
      r session-event session event note "looked at $word"
      r session-show session show --json
      r session-list session list
      r memory-add memory add "$word must stay fast"
      r memory-search memory search "$word" --json
      r usage usage --json
      r eval eval --commits 4 --json
      r evalpack eval --pack --commits 4 --json
      cp -r .speed-same/features/f/context "$out/artifacts"
    )
  done
  if diff -r "$work/old-$name.out" "$work/new-$name.out" > "$work/$name.diff"; then
    echo "$name: same ($(ls "$work/old-$name.out" | wc -l) outputs, task file $file)"
  else
    echo "$name: DIFFERS"; head -40 "$work/$name.diff"; bad=1
  fi
done
exit $bad
