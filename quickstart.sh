#!/usr/bin/env bash
# Installs git-speed and runs its main job end to end on this repository,
# with the sample feature in .speed.example: index the tree (Layer 1), show
# the ranked repo map, scope task 2 of the hook-health feature (Layer 2) and
# render its developer prompt (Layer 3), which ends up on stdout.
set -euo pipefail
cd "$(dirname "$0")"
go install ./cmd/git-speed
bin="$(go env GOBIN)"; [ -n "$bin" ] || bin="$(go env GOPATH)/bin"
export PATH="$bin:$PATH"
echo "== git-speed installed at $bin/git-speed; add that folder to your PATH for \`git speed\`" >&2
echo "== Layer 1: git speed index" >&2
git speed index
echo "== the ranked repo map: git speed map --budget 1200" >&2
git speed map --budget 1200
echo "== Layer 2: git speed --speed-dir .speed.example scope hook-health 2" >&2
git speed --speed-dir .speed.example scope hook-health 2
echo "== Layer 3: git speed --speed-dir .speed.example render developer hook-health 2" >&2
git speed --speed-dir .speed.example render developer hook-health 2
