#!/usr/bin/env bash
# Changed lines scope shows, per language, on the repositories of
# bench/eval-lines.tsv: `git speed eval --json` at 32k tokens (developer
# stage, the default policy) with this checkout's build and a baseline
# built from BASELINE_REV, in the same run, on the same clones.
#
#   bench/eval-lines.sh [BASELINE_REV]
#
# BASELINE_REV defaults to 4638c26 (main at 3023c9d plus the eval that
# judges lines, scoping unchanged), the first build whose eval reports
# hunks. Each repository is cloned from its bare mirror,
# MIRRORS/owner+name/repo (MIRRORS must be set), into DATA/name (default
# a temporary folder; set DATA to keep the clones) at the commit the recipe names;
# refs/speed is deleted before each build's run, so builds share no
# index. COMMITS (default 40) recent commits per repository; ONLY=name,…
# limits the run; OUT=DIR keeps the reports (default a temporary folder;
# a report already in OUT is not made again); BUILDS="base" or "new"
# runs one build only.
#
# Prints, per build, a row per repository, then per language and pooled
# per set (tune, validate): truth files, file recall, hunks, the share
# shown and the share shown or pointed to.
source "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
base_rev=${1:-4638c26}
mirrors=${MIRRORS:?set MIRRORS to the folder of bare mirrors (owner+name/repo)}
commits=${COMMITS:-40}
if [ -n "${OUT:-}" ]; then
  work=$OUT
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
data=${DATA:-$work/data}
builds=${BUILDS:-base new}
rm -f "$work/rows.base" "$work/rows.new"
mkdir -p "$work/new" "$work/base" "$data"
[[ " $builds " != *" new "* ]] || [ -x "$work/new/git-speed" ] || build_git_speed "$work/new"
if [[ " $builds " == *" base "* ]] && [ ! -x "$work/base/git-speed" ]; then
  wt=$(mktemp -d)
  git -C "$root" worktree add -q --detach "$wt/src" "$base_rev"
  (cd "$wt/src" && go build -o "$work/base/git-speed" ./cmd/git-speed)
  git -C "$root" worktree remove --force "$wt/src"
  rm -rf "$wt"
fi

while IFS=$'\t' read -r lang set repo commit; do
  case $lang in ''|'#'*) continue ;; esac
  name=${repo#*/}
  if [ -n "${ONLY:-}" ] && [[ ",$ONLY," != *",$name,"* ]]; then
    continue
  fi
  clone=$data/$name
  if [ ! -d "$clone/.git" ]; then
    git clone -q --no-checkout "$mirrors/${repo/\//+}/repo" "$clone" || { echo "eval-lines: $repo: no mirror, skipped" >&2; continue; }
  fi
  git -C "$clone" checkout -q --detach "$commit" || { echo "eval-lines: $repo: no commit $commit, skipped" >&2; continue; }
  for b in $builds; do
    if [ ! -f "$work/$name.$b.json" ]; then
      git -C "$clone" for-each-ref --format='%(refname)' refs/speed | xargs -rn1 git -C "$clone" update-ref -d
      if (cd "$clone" && PATH=$work/$b:$PATH git speed eval --commits "$commits" --budget 32000 --json) > "$work/$name.$b.json.tmp" 2> "$work/$name.$b.err"; then
        mv "$work/$name.$b.json.tmp" "$work/$name.$b.json"
      else
        echo "eval-lines: $repo ($b): eval failed: $(tail -1 "$work/$name.$b.err")" >&2
        continue
      fi
    fi
    printf '%s\t%s\t%s\n' "$lang" "$set" "$name" >> "$work/rows.$b"
  done
done < "$root/bench/eval-lines.tsv"

python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
def tally(rep):
    t = next(m for m in rep["methods"] if m["method"] == "value")
    o = t["outcomes"]
    return {"truth": t["truth"], "got": o.get("full", 0) + o.get("skeleton", 0) + o.get("truncated", 0),
            "hunks": t["hunks"], "shown": t["hunks_shown"], "pointed": t["hunks_pointed"], "cases": rep["cases"]}
def row(label, t):
    r = lambda a, b: f"{a / b:.3f}" if b else "  -  "
    return f"| {label} | {t['cases']} | {t['truth']} | {r(t['got'], t['truth'])} | {t['hunks']} | {r(t['shown'], t['hunks'])} | {r(t['pointed'], t['hunks'])} |"
def add(a, b):
    for k, v in b.items():
        a[k] = a.get(k, 0) + v
for b in ("base", "new"):
    rows = os.path.join(work, "rows." + b)
    if not os.path.exists(rows):
        continue
    print(f"\n## {b}\n\n| repository | cases | truth | file recall | hunks | shown | pointed |\n|---|---|---|---|---|---|---|")
    pools = {}
    for line in open(rows):
        lang, st, name = line.rstrip("\n").split("\t")
        t = tally(json.load(open(os.path.join(work, f"{name}.{b}.json"))))
        print(row(f"{name} ({lang}, {st})", t))
        for k in ((lang, st), ("all", st)):
            add(pools.setdefault(k, {}), t)
    print("\n| language, set | cases | truth | file recall | hunks | shown | pointed |\n|---|---|---|---|---|---|---|")
    for k in sorted(pools, key=lambda k: (k[1], k[0] == "all", k[0])):
        print(row(f"{k[0]}, {k[1]}", pools[k]))
PY
