#!/usr/bin/env bash
# Layer 1 and the agent's first calls on a synthetic monorepo of at least
# 400,000 files, beside kubernetes in the same script.
#
#   bench/monorepo.sh CORPUS/kubernetes [RUNS] [MIN_FILES]
#
# The monorepo is kubernetes' tree (../shared/bench/make-k8s-corpus.sh)
# copied under c00/, c01/, … until it holds MIN_FILES files (default
# 400000), every blob of every copy made distinct by a line naming its copy
# (bench/monorepo.py), committed with git fast-import into a temporary
# repository (DATA=DIR keeps it in DIR and reuses it). For kubernetes and
# then the monorepo, medians over RUNS (default 1; a monorepo round takes
# minutes) of: the full index from an empty store with its peak RSS, the
# one-file and ten-file incremental updates, the first scope of one task
# touching the kubelet, map --budget 2000 (computed), a pack of one request
# (warm: run once before), and the store's size. The last line gives the
# ratios the goals are stated in.
source "$(dirname "$0")/lib.sh"
k8s=${1:?usage: bench/monorepo.sh CORPUS/kubernetes [RUNS] [MIN_FILES]}
runs=${2:-1}
want=${3:-400000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_git_speed "$work"
gs="$work/git-speed"
k8s=$(cd "$k8s" && pwd)
mono=${DATA:-$work}/monorepo
if [ ! -d "$mono/.git" ]; then
  git init -q "$mono"
  git -C "$mono" config gc.auto 0
  python3 "$root/bench/monorepo.py" "$k8s" k8s-v1.36.0-tree "$want" |
    git -C "$mono" fast-import --quiet --depth=0
  git -C "$mono" symbolic-ref HEAD refs/heads/main
fi

# follow_tree BASE FILE...: BASE with a comment line appended to each FILE.
follow_tree() {
  local base=$1 idx p oid; shift
  idx=$(mktemp)
  GIT_INDEX_FILE=$idx git read-tree "$base"
  for p in "$@"; do
    oid=$( (git cat-file blob "$base:$p"; echo "// bench change") | git hash-object -w --stdin)
    GIT_INDEX_FILE=$idx git update-index --cacheinfo "100644,$oid,$p"
  done
  GIT_INDEX_FILE=$idx git write-tree
  rm -f "$idx"
}

# measure NAME DIR BASE PREFIX: the round of figures on DIR's tree BASE; the
# task and the edits are under PREFIX ("" for kubernetes, "c00/" in the
# monorepo).
measure() {
  local name=$1 dir=$2 base=$3 pre=$4 out="$work/$1"
  cd "$dir"
  local edited=${pre}pkg/kubelet/kubelet.go
  local others=(pkg/kubelet/pod_workers.go pkg/scheduler/scheduler.go pkg/proxy/iptables/proxier.go
    staging/src/k8s.io/client-go/rest/request.go pkg/apis/core/types.go cmd/kubeadm/app/cmd/init.go
    pkg/controller/deployment/deployment_controller.go pkg/volume/csi/csi_plugin.go pkg/kubelet/kuberuntime/kuberuntime_manager.go)
  local onetree tentree
  onetree=$(follow_tree "$base" "$edited")
  tentree=$(follow_tree "$base" "$edited" "${others[@]/#/$pre}")
  local speed=.speed-mono-bench
  grep -qx "/$speed/" "$(git rev-parse --git-common-dir)/info/exclude" 2>/dev/null ||
    { mkdir -p "$(git rev-parse --git-common-dir)/info"; echo "/$speed/" >> "$(git rev-parse --git-common-dir)/info/exclude"; }
  mkdir -p "$speed/features/bench/tasks"
  printf '# Bench\n\n## Requirements\n\n- REQ-1: the kubelet syncs pods.\n' > "$speed/features/bench/spec.md"
  printf 'id = "1"\ntitle = "Sync pods faster"\ndescription = "Make the kubelet sync loop cheaper."\nfiles_touched = ["%s"]\nrequirements = ["REQ-1"]\n' "$edited" > "$speed/features/bench/tasks/1.toml"
  packs_mark "$out.packs"
  for _ in $(seq "$runs"); do
    empty_store "$out.packs"
    timed "$out.full" "$gs" index --rev "$base"
    local fresh; fresh=$(git rev-parse refs/speed/index)
    timed "$out.one" "$gs" index --rev "$onetree"
    git update-ref refs/speed/index "$fresh"
    timed "$out.ten" "$gs" index --rev "$tentree"
    git update-ref refs/speed/index "$fresh"
    rm -rf "$(git rev-parse --git-common-dir)/speed/cache/scopes" "$(git rev-parse --git-common-dir)/speed/cache/maps"
    timed "$out.scope" "$gs" --speed-dir "$speed" scope bench 1 --rev "$base"
    timed "$out.map" "$gs" map --budget 2000 --rev "$base"
    "$gs" pack --rev "$base" "kubelet pod sync loop is slow when pods restart" >/dev/null 2>&1
    timed "$out.pack" "$gs" pack --rev "$base" "kubelet pod sync loop is slow when pods restart"
  done
  "$gs" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["store"])' > "$out.store"
  git ls-tree -r --name-only "$base" | wc -l > "$out.files"
  rm -rf "$speed"
}

measure kubernetes "$k8s" k8s-v1.36.0-tree ""
measure monorepo "$mono" 'HEAD^{tree}' c00/

med() { cut -d' ' -f1 "$work/$1" | median; }
ms() { awk -v s="$(med "$1")" 'BEGIN {printf "%d ms", s * 1000}'; }
rss() { echo "$(( $(cut -d' ' -f2 "$work/$1" | median | cut -d. -f1) / 1024 )) MiB"; }
for n in kubernetes monorepo; do
  echo "$n ($(cat "$work/$n.files") files), medians of $runs runs"
  echo "  full index        $(med "$n.full") s, peak RSS $(rss "$n.full")"
  echo "  one-file update   $(ms "$n.one"), peak RSS $(rss "$n.one")"
  echo "  ten-file update   $(ms "$n.ten")"
  echo "  first scope       $(ms "$n.scope"), peak RSS $(rss "$n.scope")"
  echo "  map --budget 2000 $(ms "$n.map")"
  echo "  pack, warm        $(ms "$n.pack")"
  echo "  store             $(cat "$work/$n.store")"
done
echo "monorepo / kubernetes: full index $(ratio "$(med monorepo.full)" "$(med kubernetes.full)")x, files $(ratio "$(cat "$work/monorepo.files")" "$(cat "$work/kubernetes.files")")x"
