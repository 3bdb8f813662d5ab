#!/usr/bin/env python3
"""Changed hunks shown by scope, from a `git speed eval --json --cases` report.

    python3 bench/langs_hunks.py CLONE EVAL.json > hunks.json

For every replayed commit and every truth file of the default method
("value"), each hunk the commit changed in the file (its lines in the
parent, from `git diff -U0`) counts as
  shown    when the file came whole, or as a skeleton keeping every line
           of the hunk (`git speed skeleton --rev PARENT` on the PATH's
           git-speed);
  pointed  when it is shown or lies in the skeleton's elided ranges named
           by line pointers ("… lines 12-40");
and neither when the file was truncated, dropped or not a candidate.
Prints {"hunks", "shown", "pointed"}. Standard library only.
"""
import json
import re
import subprocess
import sys

POINTER = re.compile(r"lines? (\d+)(?:-(\d+))?")
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? ")


def git(clone, *args):
    r = subprocess.run(["git", "-C", clone, *args], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else ""


def hunks(clone, parent, commit, path):
    out = []
    for line in git(clone, "diff", "-U0", "--no-renames", parent, commit, "--", path).splitlines():
        m = HUNK.match(line)
        if not m:
            continue
        a, n = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
        out.append({a, a + 1} if n == 0 else set(range(a, a + n)))
    return out


def skeleton_lines(clone, parent, path):
    """Source lines the skeleton shows and the lines its pointers name."""
    src = git(clone, "show", f"{parent}:{path}").split("\n")
    r = subprocess.run(["git", "speed", "skeleton", "--rev", parent, path], cwd=clone, capture_output=True, text=True)
    shown, pointed = set(), set()
    cur = 0
    for k, line in enumerate(r.stdout.split("\n")):
        if k == 0 and "skeleton of" in line:
            continue  # the header
        head = line.split("…")[0].rstrip() if "…" in line else line.rstrip()
        if head.strip():
            for j in range(cur, len(src)):
                if src[j].rstrip().startswith(head) or (head.strip() and src[j].strip().startswith(head.strip())):
                    shown.add(j + 1)
                    cur = j + 1
                    break
        if "…" in line:
            for m in POINTER.finditer(line[line.index("…"):]):
                a = int(m.group(1))
                b = int(m.group(2) or a)
                pointed.update(range(a, b + 1))
                cur = max(cur, b)
    return shown, pointed


def main():
    clone, report = sys.argv[1], sys.argv[2]
    rep = json.load(open(report))
    total = shown = pointed = 0
    for case in rep.get("detail") or []:
        commit = case["commit"]
        parent = git(clone, "rev-parse", commit + "^").strip()
        if not parent:
            continue
        for path, where in (case["results"].get("value") or {}).items():
            tier = where.split("@")[0]
            hs = hunks(clone, parent, commit, path)
            total += len(hs)
            if tier == "full":
                shown += len(hs)
                pointed += len(hs)
            elif tier == "skeleton" and hs:
                s, p = skeleton_lines(clone, parent, path)
                for h in hs:
                    if h <= s or (len(h) == 2 and h & s):
                        shown += 1
                        pointed += 1
                    elif h <= (s | p) or (len(h) == 2 and h & (s | p)):
                        pointed += 1
    json.dump({"hunks": total, "shown": shown, "pointed": pointed}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
