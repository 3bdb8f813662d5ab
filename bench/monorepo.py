#!/usr/bin/env python3
"""Writes a git fast-import stream of a synthetic monorepo to stdout.

    monorepo.py SOURCE_REPO TREE MIN_FILES

The tree TREE of SOURCE_REPO is copied under c00/, c01/, ... until the copies
hold at least MIN_FILES files. Every copy of every blob is distinct: a line
naming its copy is appended, as a comment where the file's kind has one and
as trailing blank lines otherwise (so data formats stay valid). One commit
on refs/heads/main holds the whole tree.
"""
import subprocess
import sys

SLASH = {".go", ".java", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".rs",
         ".c", ".h", ".cc", ".cpp", ".hpp", ".proto", ".kt", ".scala", ".swift",
         ".cs", ".dart", ".php"}
HASH = {".py", ".sh", ".bash", ".yaml", ".yml", ".toml", ".rb", ".pl", ".mk",
        ".bzl", ".cfg", ".conf", ".tf", ".r"}


def perturb(path, data, copy):
    dot = path.rfind(".")
    ext = path[dot:].lower() if dot > path.rfind("/") else ""
    if not data.endswith(b"\n") and data:
        data += b"\n"
    if ext in SLASH:
        return data + b"// monorepo copy %d\n" % copy
    if ext in HASH or path.endswith("Makefile") or path.endswith("Dockerfile"):
        return data + b"# monorepo copy %d\n" % copy
    return data + b"\n" * (copy + 1)


def quoted(path):
    """path as fast-import reads it: C-style quoted when it must be."""
    if '"' not in path and "\n" not in path and "\\" not in path:
        return path.encode()
    esc = path.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return b'"' + esc.encode() + b'"'


def main():
    src, tree, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
    ls = subprocess.run(["git", "-C", src, "ls-tree", "-r", "-z", tree],
                        check=True, capture_output=True).stdout
    entries = []
    for rec in ls.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, oid = meta.split()
        if kind == b"blob" and mode in (b"100644", b"100755"):
            entries.append((mode.decode(), oid.decode(), path.decode()))
    copies = -(-want // len(entries))
    cat = subprocess.Popen(["git", "-C", src, "cat-file", "--batch"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out = sys.stdout.buffer
    marks = []  # per entry, per copy: mark number
    mark = 0
    for mode, oid, path in entries:
        cat.stdin.write(oid.encode() + b"\n")
        cat.stdin.flush()
        header = cat.stdout.readline().split()
        size = int(header[2])
        data = cat.stdout.read(size)
        cat.stdout.read(1)
        row = []
        for c in range(copies):
            mark += 1
            body = perturb(path, data, c)
            out.write(b"blob\nmark :%d\ndata %d\n" % (mark, len(body)))
            out.write(body)
            out.write(b"\n")
            row.append(mark)
        marks.append(row)
    cat.stdin.close()
    cat.wait()
    msg = b"synthetic monorepo: %d copies of %d files\n" % (copies, len(entries))
    out.write(b"commit refs/heads/main\n")
    out.write(b"committer bench <bench@example.com> 1700000000 +0000\n")
    out.write(b"data %d\n%s" % (len(msg), msg))
    for c in range(copies):
        for (mode, _, path), row in zip(entries, marks):
            out.write(b"M %s :%d %s\n" % (mode.encode(), row[c], quoted("c%02d/%s" % (c, path))))
    out.write(b"\n")
    sys.stderr.write("monorepo: %d files (%d copies of %d)\n" % (copies * len(entries), copies, len(entries)))


if __name__ == "__main__":
    main()
