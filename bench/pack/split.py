#!/usr/bin/env python3
"""Assigns each repository of the pack recipe to the tuning or the
validation set by a fixed rule, so nobody chooses which repositories a
weight is judged on: within each language, repositories sorted by the
SHA-256 of their owner/name; the first half (rounded up) tune, the rest
validate.

  bench/pack/split.py < repos.in > repos.tsv     # write the recipe
  bench/pack/split.py --check repos.tsv          # the recipe follows the rule

Input lines: language, owner/name, commit (tab-separated; # comments).
Output lines: language, set, owner/name, commit."""
import hashlib
import sys
from collections import defaultdict


def rows(lines):
    for line in lines:
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        yield line.split("\t")


def assign(repos):
    by_lang = defaultdict(list)
    for lang, repo, commit in repos:
        by_lang[lang].append((hashlib.sha256(repo.encode()).hexdigest(), repo, commit))
    out = []
    for lang in sorted(by_lang):
        rs = sorted(by_lang[lang])
        tune = (len(rs) + 1) // 2
        for i, (_, repo, commit) in enumerate(rs):
            out.append((lang, "tune" if i < tune else "validate", repo, commit))
    return out


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        with open(sys.argv[2]) as f:
            have = [tuple(r) for r in rows(f)]
        want = assign([(l, r, c) for l, _, r, c in have])
        if sorted(have) != sorted(want):
            for h in sorted(set(have) - set(want)):
                print(f"{sys.argv[2]}: {h[2]} is in the {h[1]} set; the rule puts it elsewhere", file=sys.stderr)
            sys.exit(1)
        return
    print("# Repositories of the pack quality measurement (issue 32): language, set,")
    print("# owner/name, commit measured at. Written by bench/pack/split.py; the set")
    print("# follows from the SHA-256 of owner/name (first half per language tunes).")
    for r in assign(list(rows(sys.stdin))):
        print("\t".join(r))


if __name__ == "__main__":
    main()
