#!/usr/bin/env bash
# Rust, Java and CommonJS quality: for every repository of bench/langs.tsv
# found as a clone under DIR (DIR/<name>, at the commit the recipe names),
# scores the graph against the language's oracle (Java: javac through
# bench/oracle-java/JavaRefs.java; CommonJS: the TypeScript oracle of
# ../shared/oracles; Rust has none) and runs `git speed eval`, with this
# checkout's build and, when given, a baseline binary in the same run.
#
#   bench/langs-quality.sh DIR [BASELINE_BINARY] [COMMITS]
#
# Prints one markdown row per repository and build: oracle precision and
# recall, eval file recall at 32k tokens, the share of truth files
# delivered whole, and the changed hunks shown and shown-or-pointed-to
# (a hunk is shown when its file comes whole, or comes as a skeleton that
# keeps all its lines; pointed to when a skeleton elides it behind a line
# pointer), then the same pooled per language and set. The clones are
# the caller's: nothing is fetched or committed; each build indexes
# into a store of its own (refs/speed is deleted before each build's
# runs, so no facts are shared between builds). ONLY=name,name… limits
# the run to those repositories and OUT=DIR keeps the results there
# (several runs over disjoint ONLY sets, each with its own clones, can
# share one OUT; the last prints the table of all).
source "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: bench/langs-quality.sh DIR [BASELINE_BINARY] [COMMITS]}
baseline=${2:-}
commits=${3:-200}
oracles=${ORACLES:-$root/../shared/oracles}
[ -f "$oracles/score.py" ] || oracles=$root/../../shared/oracles
if [ -n "${OUT:-}" ]; then
  work=$OUT
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
[ -x "$work/git-speed" ] || build_git_speed "$work"
mkdir -p "$work/base"
[ -n "$baseline" ] && cp "$baseline" "$work/base/git-speed"
builds="new"
[ -n "$baseline" ] && builds="base new"

bin_of() { if [ "$1" = new ]; then echo "$work"; else echo "$work/base"; fi; }

while IFS=$'\t' read -r lang set repo commit; do
  case $lang in ''|'#'*) continue ;; esac
  name=${repo#*/}
  if [ -n "${ONLY:-}" ] && [[ ",$ONLY," != *",$name,"* ]]; then
    continue
  fi
  clone=$dir/$name
  if [ ! -d "$clone/.git" ]; then
    echo "langs-quality: $clone: no clone, skipped" >&2
    continue
  fi
  if [ "$(git -C "$clone" rev-parse HEAD)" != "$commit" ]; then
    git -C "$clone" checkout -q --detach "$commit" || continue
  fi
  oracle=
  case $lang in
    java) oracle=$work/$name.oracle.json
      java "$root/bench/oracle-java/JavaRefs.java" --dir "$clone" --examples 2 > "$oracle" ;;
    commonjs) oracle=$work/$name.oracle.json
      (cd "$oracles/ts" && { [ -d node_modules/typescript ] || npm ci --no-audit --no-fund >/dev/null; } &&
        node --max-old-space-size=8192 main.js --dir "$clone" --examples 2) > "$oracle" ;;
  esac
  for b in $builds; do
    bin=$(bin_of "$b")
    git -C "$clone" for-each-ref --format='%(refname)' refs/speed | xargs -rn1 git -C "$clone" update-ref -d
    (cd "$clone" && PATH=$bin:$PATH git speed index -q && PATH=$bin:$PATH git speed graph --json) > "$work/$name.$b.graph.json"
    if [ -n "$oracle" ]; then
      python3 "$oracles/score.py" --oracle "$oracle" --candidate "$work/$name.$b.graph.json" --lang go --sample 0 > "$work/$name.$b.score.json"
    else
      echo '{}' > "$work/$name.$b.score.json"
    fi
    (cd "$clone" && PATH=$bin:$PATH git speed eval --commits "$commits" --budget 32000 --json --cases) > "$work/$name.$b.eval.json"
    PATH=$bin:$PATH python3 "$root/bench/langs_hunks.py" "$clone" "$work/$name.$b.eval.json" > "$work/$name.$b.hunks.json"
    echo "$lang $set $name $b" >> "$work/rows.$name"
  done
done < "$root/bench/langs.tsv"

python3 - "$work" <<'PY'
import json, sys, collections
w = sys.argv[1]
import glob
rows = [l.split() for p in sorted(glob.glob(f"{w}/rows.*")) for l in open(p)]
pool = collections.defaultdict(lambda: collections.Counter())
print("| language | set | repository | build | precision | recall | eval truth | file recall | whole | hunks | shown | shown or pointed |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for lang, st, name, b in rows:
    sc = json.load(open(f"{w}/{name}.{b}.score.json"))
    ev = json.load(open(f"{w}/{name}.{b}.eval.json"))
    hk = json.load(open(f"{w}/{name}.{b}.hunks.json"))
    seed = {"commonjs": "javascript"}.get(lang, lang)
    t = next((l for l in ev["languages"] if l["method"] == "value" and l["lang"] == seed), None)
    truth = t["truth"] if t else 0
    rec = t["recall"] if t else 0
    whole = t["full_recall"] if t else 0
    k = pool[(lang, st, b)]
    k["truth"] += truth; k["hit"] += round(rec * truth); k["whole"] += round(whole * truth)
    for x in ("hunks", "shown", "pointed"):
        k[x] += hk.get(x, 0)
    p = sc.get("precision", "–"); r = sc.get("recall", "–")
    n = hk.get("hunks", 0) or 1
    print(f"| {lang} | {st} | {name} | {b} | {p} | {r} | {truth} | {rec:.3f} | {whole:.3f} | {hk.get('hunks', 0)} | {hk.get('shown', 0)/n:.3f} | {hk.get('pointed', 0)/n:.3f} |")
print()
print("| language | set | build | truth | file recall | whole | hunks | shown | shown or pointed |")
print("|---|---|---|---|---|---|---|---|---|")
for (lang, st, b), k in sorted(pool.items()):
    t = k["truth"] or 1; n = k["hunks"] or 1
    print(f"| {lang} | {st} | {b} | {k['truth']} | {k['hit']/t:.3f} | {k['whole']/t:.3f} | {k['hunks']} | {k['shown']/n:.3f} | {k['pointed']/n:.3f} |")
PY
