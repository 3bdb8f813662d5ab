#!/usr/bin/env bash
# Redactions on a real corpus: what the redaction layer removes from a tree
# an index reads, by rule and by file kind, with a sample of each, so that a
# reviewer can tell every one is secret-shaped (docs/redact.md).
#
#   bench/redact-scan.sh CORPUS [REV] [SAMPLES]
#
# CORPUS is a git repository (GOROOT/src committed, a kubernetes tree); REV
# the tree to read (default HEAD; the kubernetes corpus has no commits:
# k8s-v1.36.0-tree). The script mirrors CORPUS into a temporary directory
# (the corpus's own refs/speed is never written), indexes REV there with
# this checkout's git-speed (timed), counts the redaction markers in the
# objects the index stored under refs/speed, and redacts every blob of REV
# as the index does, reporting the redactions by rule and file kind, SAMPLES
# redacted lines of each (default 3) and the throughput in CPU time
# (internal/redact's fpscan test).
source "$(dirname "$0")/lib.sh"
corpus=${1:?usage: bench/redact-scan.sh CORPUS [REV] [SAMPLES]}
rev=${2:-HEAD}
samples=${3:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
gs="$work/git-speed"
git clone -q --no-local --mirror "$corpus" "$work/repo"
cd "$work/repo"
timed "$work/index" "$gs" index --rev "$rev"
read -r wall rss cpu < "$work/index"
echo "index of $rev: $wall s wall, $cpu s CPU, peak RSS $((rss / 1024)) MiB"

# Markers in the store: every object under refs/speed that no other ref
# reaches (the user's trees and blobs are not the store's). Facts hold
# names, signatures, doc lines and keys, not most literals, so they hold
# far fewer markers than the files.
git rev-list --objects --exclude='refs/speed/*' --all | cut -d' ' -f1 | sort > "$work/user"
git for-each-ref --format='%(refname)' refs/speed/ | git rev-list --objects --stdin | cut -d' ' -f1 | sort |
  comm -23 - "$work/user" | git cat-file --batch | { grep -ao 'REDACTED([a-z0-9-]*)' || true; } | sort | uniq -c |
  awk 'BEGIN {print "markers in the store by rule:"} {n += $1; printf "  %-28s %d\n", substr($2, 10, length($2) - 10), $1} END {printf "  %-28s %d\n", "total", n}'

cd "$root"
REDACT_GIT="$work/repo" REDACT_REV="$rev" REDACT_SAMPLES="$samples" \
  go test -count=1 -tags fpscan -run GOROOT -v ./internal/redact | grep -av '^=== \|^--- \|^PASS\|^ok' | sed 's/^    goroot_test.go:[0-9]*: //; s/^        /  /'
