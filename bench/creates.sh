#!/usr/bin/env bash
# Tasks that only create files: for every clone DIR/<name> named, runs
# `git speed eval --creates` with this checkout's build (the commits that
# added source files replayed as files.create tasks at 32k tokens) and
# prints one markdown row per repository, then all of them pooled: cases,
# truth files, file recall with the place signal and without it (what a
# created file brought before it had a place: nothing), the mean share of
# code_context from the place, and how many of the cases whose place holds
# at least 20 % of code_context were given that much (issue 31's goal).
#
#   bench/creates.sh DIR NAME... [COMMITS=300]
#
# The clones are the caller's: nothing is fetched or committed; each is
# indexed (incrementally) into its own refs/speed.
source "$(dirname "$0")/lib.sh"
dir=${1:?usage: bench/creates.sh DIR NAME...}
shift
commits=${COMMITS:-300}
out=$(mktemp -d)
build_git_speed "$out"
export PATH=$out:$PATH
for n in "$@"; do
  (cd "$dir/$n" && git speed eval --creates --commits "$commits" --json > "$out/$n.json")
done
python3 - "$out" "$@" <<'PY'
import json, sys
out, names = sys.argv[1], sys.argv[2:]
print("| repository | cases | truth | recall | recall, no place | place share | at goal / capable |")
print("|---|---:|---:|---:|---:|---:|---:|")
tot = {"cases": 0, "truth": 0, "d": 0, "d0": 0, "share": 0.0, "goal": 0, "cap": 0}
for n in names:
    r = json.load(open(f"{out}/{n}.json"))
    m = {x["method"]: x for x in r["methods"]}
    v, o = m["value"], m["no-place"]
    print(f"| {n} | {v['cases']} | {v['truth']} | {v['recall']:.3f} | {o['recall']:.3f} | {v['place_share']:.3f} | {v['at_goal']}/{v['capable']} |")
    tot["cases"] += v["cases"]; tot["truth"] += v["truth"]; tot["d"] += v["delivered"]; tot["d0"] += o["delivered"]
    tot["share"] += v["place_share"] * v["cases"]; tot["goal"] += v["at_goal"]; tot["cap"] += v["capable"]
t = tot
rec = lambda d: d / t["truth"] if t["truth"] else 0
share = t["share"] / t["cases"] if t["cases"] else 0
print(f"| all | {t['cases']} | {t['truth']} | {rec(t['d']):.3f} | {rec(t['d0']):.3f} | {share:.3f} | {t['goal']}/{t['cap']} |")
PY
rm -rf "$out"
