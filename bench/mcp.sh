#!/usr/bin/env bash
# The MCP server under load on a large corpus: 8 read and symbols calls
# arriving while a render (then a scope) of one task runs in the same
# server, each answer's time (BenchmarkMCPReadsDuringRender), and the two
# calls alone on a warm session (BenchmarkWarmLookups).
#
#   bench/mcp.sh CORPUS [COUNT]
#
# CORPUS is kubernetes (../shared/bench/make-k8s-corpus.sh) or any
# repository with a HEAD commit. It is cloned (objects shared, nothing
# checked out) into a temporary folder with a commit of its tree, indexed
# there, and given a feature of one task touching the kubelet (or the
# corpus' 100th Go file). COUNT iterations per run (default 5).
source "$(dirname "$0")/lib.sh"
corpus=${1:?usage: bench/mcp.sh CORPUS [COUNT]}
count=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
git clone -q --shared --no-checkout "$corpus" "$work/repo"
cd "$work/repo"
if git rev-parse -q --verify k8s-v1.36.0-tree >/dev/null; then
  tree=k8s-v1.36.0-tree file=pkg/kubelet/kubelet.go name=NewMainKubelet
else
  tree=$(git rev-parse 'HEAD^{tree}')
  file=$(git ls-tree -r --name-only "$tree" | grep '\.go$' | sed -n 100p)
  name=$(git cat-file blob "$tree:$file" | sed -n 's/^func \([A-Z][A-Za-z0-9]*\).*/\1/p' | head -1)
fi
commit=$(git -c user.name=bench -c user.email=bench@example.com commit-tree "$tree" -m bench)
git update-ref refs/heads/bench "$commit"
git symbolic-ref HEAD refs/heads/bench
git read-tree "$commit" # the index matches HEAD: nothing is staged
"$work/git-speed" index -q
mkdir -p .speed-bench/features/bench/tasks
printf '# Bench\n\n## Requirements\n\n- REQ-1: %s keeps working.\n' "$name" > .speed-bench/features/bench/spec.md
printf 'id = "1"\ntitle = "Change %s"\ndescription = "Make %s cheaper."\nfiles_touched = ["%s"]\nrequirements = ["REQ-1"]\n' \
  "$name" "$name" "$file" > .speed-bench/features/bench/tasks/1.toml
export GIT_SPEED_BENCH_MCP_REPO=$work/repo GIT_SPEED_BENCH_MCP_PATH=$file GIT_SPEED_BENCH_MCP_NAME=$name
export GIT_SPEED_BENCH_LOOKUP_REPO=$work/repo GIT_SPEED_BENCH_LOOKUP_PATH=$file GIT_SPEED_BENCH_LOOKUP_NAME=$name
cd "$root"
# The same two calls alone, in process, on a warm session: their own cost.
go test -run '^$' -bench BenchmarkWarmLookups -benchtime 50x -count 3 ./internal/app | grep Benchmark
for tool in render scope; do
  GIT_SPEED_BENCH_MCP_TOOL=$tool go test -run '^$' -bench BenchmarkMCPReadsDuringRender -benchtime "${count}x" -count 3 ./cmd/git-speed |
    grep Benchmark
done
