#!/usr/bin/env bash
# Pack quality: recall@5/@10 of `git speed pack` beside BM25 computed in
# the same run, per repository and per kind of request, pooled over the
# tuning and the validation sets of bench/pack/repos.tsv, with this
# checkout's build and, when given, a baseline binary.
#
#   bench/pack-quality.sh DIR [BASELINE_BINARY] [COMMITS]
#
# DIR/<name> is a clone of each repository of the recipe (made from
# $MIRRORS/<owner>+<name>/repo when missing; MIRRORS must then be set)
# checked out at the recipe's commit; COMMITS (default 30)
# recent commits of each are replayed with their messages as requests.
# When SWEBENCH=DIR2 names the output of bench/pack/swebench.py, each
# DIR2/<owner>+<name>.jsonl whose repository has a clone DIR/<name> is
# replayed too (real issue texts at their base commits, kind "issue").
#
# WEIGHTS='{"Path":4}' passes --weights to this checkout's build (tuning,
# ablation); ONLY=name,name… limits the run; OUT=DIR keeps the per
# repository JSON reports there (else a temporary folder) and PAR=N runs
# N repositories at once (default 1). Both builds share each clone's
# index (refs/speed): their index formats are the same, and a pack is
# the only thing compared. Prints markdown tables (bench/pack/tables.py).
source "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: bench/pack-quality.sh DIR [BASELINE_BINARY] [COMMITS]}
baseline=${2:-}
commits=${3:-30}
mirrors=${MIRRORS:-}
if [ -n "${OUT:-}" ]; then
  work=$OUT
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/new" "$work/base" "$dir"
build_git_speed "$work/new"
[ -n "$baseline" ] && cp "$baseline" "$work/base/git-speed"
builds="new"
[ -n "$baseline" ] && builds="base new"

jobs=()
while IFS=$'\t' read -r lang set repo commit; do
  case $lang in ''|'#'*) continue ;; esac
  name=${repo#*/}
  if [ -n "${ONLY:-}" ] && [[ ",$ONLY," != *",$name,"* ]]; then
    continue
  fi
  clone=$dir/$name
  if [ ! -d "$clone/.git" ]; then
    src=$mirrors/${repo/\//+}/repo
    if [ ! -d "$src" ]; then
      echo "pack-quality: $clone: no clone and no mirror $src, skipped" >&2
      continue
    fi
    git clone -q "$src" "$clone"
  fi
  if [ "$(git -C "$clone" rev-parse HEAD)" != "$commit" ]; then
    git -C "$clone" checkout -q --detach "$commit" || continue
  fi
  reqs=
  if [ -n "${SWEBENCH:-}" ] && [ -f "$SWEBENCH/${repo/\//+}.jsonl" ]; then
    reqs=$SWEBENCH/${repo/\//+}.jsonl
  fi
  jobs+=("$lang|$set|$repo|$clone|$reqs|$commits")
done < "$root/bench/pack/repos.tsv"

# SWE-bench repositories: issue texts only, at their own base commits.
if [ -n "${SWEBENCH:-}" ]; then
  while IFS=$'\t' read -r set repo _ file; do
    name=${repo#*/}
    if [ -n "${ONLY:-}" ] && [[ ",$ONLY," != *",$name,"* ]]; then
      continue
    fi
    clone=$dir/$name
    if [ ! -d "$clone/.git" ]; then
      src=$mirrors/${repo/\//+}/repo
      if [ ! -d "$src" ]; then
        echo "pack-quality: $clone: no clone and no mirror $src, skipped" >&2
        continue
      fi
      git clone -q "$src" "$clone"
    fi
    jobs+=("python|$set|$repo|$clone|$SWEBENCH/$file|0")
  done < <(python3 "$root/bench/pack/swebench.py" --list)
fi

run_one() {
  IFS='|' read -r lang set repo clone reqs n <<<"$1"
  local name=${repo/\//+} b
  for b in $builds; do
    local args=(eval --pack --json --commits "$n")
    if [ -n "$reqs" ]; then
      # A baseline older than --requests replays the commit messages only.
      if "$work/$b/git-speed" eval --help 2>&1 | grep -q -- --requests; then
        args+=(--requests "$reqs")
      elif [ "$n" = 0 ]; then
        continue
      fi
    fi
    [ "$b" = new ] && [ -n "${WEIGHTS:-}" ] && args+=(--weights "$WEIGHTS")
    local t0=$SECONDS
    if ! (cd "$clone" && "$work/$b/git-speed" "${args[@]}" > "$work/$b/$name.json.tmp" 2> "$work/$b/$name.err"); then
      echo "pack-quality: $repo ($b): $(tail -1 "$work/$b/$name.err")" >&2
      continue
    fi
    python3 - "$work/$b/$name.json.tmp" "$lang" "$set" "$repo" > "$work/$b/$name.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
rep["repo"] = {"lang": sys.argv[2], "set": sys.argv[3], "name": sys.argv[4]}
json.dump(rep, sys.stdout)
PY
    rm -f "$work/$b/$name.json.tmp"
    echo "pack-quality: $repo ($b) $((SECONDS - t0)) s" >&2
  done
}
export -f run_one
export builds work WEIGHTS
printf '%s\n' "${jobs[@]}" | xargs -P "${PAR:-1}" -I{} bash -c 'run_one "$@"' _ {}

python3 "$root/bench/pack/tables.py" "$work" $builds
