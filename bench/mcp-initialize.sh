#!/usr/bin/env bash
# How long a client waits for `git speed mcp` to answer initialize and
# tools/list (process start included), in a tiny repository and in the Go
# distribution's src committed into a repository, indexed and not
# (BenchmarkMCPInitialize). The server indexes on a tool call, never
# before initialize: the three should be alike.
#
#   bench/mcp-initialize.sh [COUNT]
source "$(dirname "$0")/lib.sh"
count=${1:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
goroot_corpus "$work/goroot"
git clone -q --shared "$work/goroot" "$work/goroot-unindexed"
(cd "$work/goroot" && "$work/git-speed" index -q)
echo "files: $(git -C "$work/goroot" ls-files | wc -l)"
cd "$root"
GIT_SPEED_BENCH_INIT_REPOS="goroot-indexed=$work/goroot,goroot-unindexed=$work/goroot-unindexed" \
  go test -run '^$' -bench BenchmarkMCPInitialize -benchtime "${count}x" -count 3 ./cmd/git-speed | grep Benchmark
