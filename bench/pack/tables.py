#!/usr/bin/env python3
"""Markdown tables of bench/pack-quality.sh: per repository and kind of
request, then pooled per set (tune, validate), kind and language; pack
recall@5/@10 of each build beside BM25 of the same run.

  bench/pack/tables.py WORK BUILD...   (WORK/BUILD/*.json, reports of
                                        `git speed eval --pack --json`)"""
import glob
import json
import os
import sys


def load(work, build):
    out = {}
    for f in sorted(glob.glob(os.path.join(work, build, "*.json"))):
        rep = json.load(open(f))
        out[rep["repo"]["name"]] = rep
    return out


def pooled(rows):
    n = sum(r["cases"] for r in rows)
    if n == 0:
        return None
    mean = lambda f, k: sum(r[f][k] * r["cases"] for r in rows) / n
    return {"cases": n, "pack": {"at5": mean("pack", "at5"), "at10": mean("pack", "at10")},
            "bm25": {"at5": mean("bm25", "at5"), "at10": mean("bm25", "at10")}}


def main():
    work, builds = sys.argv[1], sys.argv[2:]
    reps = {b: load(work, b) for b in builds}
    last = builds[-1]
    names = sorted(reps[last], key=lambda n: (reps[last][n]["repo"]["set"], reps[last][n]["repo"]["lang"], n))
    head = "| repository | language | set | kind | cases | " + " | ".join(f"pack@5 {b}" for b in builds) + " | bm25@5 | " + \
        " | ".join(f"pack@10 {b}" for b in builds) + " | bm25@10 |"
    print("### Per repository\n")
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    below = []
    groups = {}
    for n in names:
        r = reps[last][n]
        for k in r.get("kinds") or []:
            cells = []
            for b in builds:
                kb = next((x for x in (reps[b].get(n) or {}).get("kinds") or [] if x["kind"] == k["kind"]), None)
                cells.append(kb)
            print(f"| {n} | {r['repo']['lang']} | {r['repo']['set']} | {k['kind']} | {k['cases']} | " +
                  " | ".join(f"{c['pack']['at5']:.3f}" if c else "-" for c in cells) + f" | {k['bm25']['at5']:.3f} | " +
                  " | ".join(f"{c['pack']['at10']:.3f}" if c else "-" for c in cells) + f" | {k['bm25']['at10']:.3f} |")
            if k["cases"] >= 20 and k["pack"]["at5"] < k["bm25"]["at5"]:
                below.append(f"{n} ({k['kind']}, {k['cases']} cases): pack@5 {k['pack']['at5']:.3f} < bm25@5 {k['bm25']['at5']:.3f}")
            for key in [(r["repo"]["set"], k["kind"], "all"), (r["repo"]["set"], k["kind"], r["repo"]["lang"])]:
                for i, b in enumerate(builds):
                    if cells[i]:
                        groups.setdefault(key, {}).setdefault(b, []).append(cells[i])
    print("\n### Pooled (mean over cases)\n")
    head = "| set | kind | language | cases | " + " | ".join(f"pack@5 {b}" for b in builds) + " | bm25@5 | " + \
        " | ".join(f"pack@10 {b}" for b in builds) + " | bm25@10 |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for key in sorted(groups, key=lambda k: (k[0], k[1], k[2] != "all", k[2])):
        ps = {b: pooled(groups[key].get(b, [])) for b in builds}
        p = ps[last]
        if not p:
            continue
        print(f"| {key[0]} | {key[1]} | {key[2]} | {p['cases']} | " +
              " | ".join(f"{ps[b]['pack']['at5']:.3f}" if ps[b] else "-" for b in builds) + f" | {p['bm25']['at5']:.3f} | " +
              " | ".join(f"{ps[b]['pack']['at10']:.3f}" if ps[b] else "-" for b in builds) + f" | {p['bm25']['at10']:.3f} |")
    print()
    if below:
        print(f"{last}: below BM25@5 on a repository and kind with 20 or more cases:")
        for b in below:
            print("- " + b)
    else:
        print(f"{last}: never below BM25@5 on a repository and kind with 20 or more cases.")


if __name__ == "__main__":
    main()
