#!/usr/bin/env bash
# What a pack costs an agent: characters and tokens of `git speed pack
# --budget 3000` for five bug-report-like requests over the Go
# distribution's src (committed into a repository), for this checkout's
# text and --compact forms beside the text of a baseline revision (BASE,
# default main), built and run in the same run.
#
#   bench/pack-output.sh [DIR]      DIR: where the corpus and binaries go
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${1:-/tmp/git-speed-pack-output}
base=${BASE:-main}
mkdir -p "$dir/new" "$dir/base"
build_git_speed "$dir/new"
rm -rf "$dir/base-src" && mkdir -p "$dir/base-src"
git -C "$root" archive "$base" | tar -x -C "$dir/base-src"
(cd "$dir/base-src" && go build -o "$dir/base/git-speed" ./cmd/git-speed)
(cd "$root" && go build -o "$dir/tokcount" ./bench/tokcount)
goroot_corpus "$dir/goroot"
cd "$dir/goroot"
PATH="$dir/new:$PATH" git speed index >/dev/null 2>&1
PATH="$dir/base:$PATH" git speed index >/dev/null 2>&1
requests=(
  "net/http: Transport does not retry a request after the server closes an idle connection"
  "encoding/json: Unmarshal into an embedded pointer to an unexported struct panics"
  "time: ParseDuration accepts a leading plus sign but Duration.String never prints one"
  "strings.Builder Grow panics with a negative count"
  "os/exec: Cmd.Wait hangs when the child's stdout is inherited by a grandchild process"
)
count() { "$dir/tokcount"; }
items() { grep -c '^## ' || true; }
printf "%-4s %8s %8s %5s %8s %8s %5s %8s %8s\n" req base_tok base_chr items text_tok text_chr items cmpt_tok cmpt_chr
i=0
for r in "${requests[@]}"; do
  i=$((i+1))
  PATH="$dir/base:$PATH" git speed pack --budget 3000 "$r" 2>/dev/null > "$dir/base.txt"
  PATH="$dir/new:$PATH" git speed pack --budget 3000 "$r" 2>/dev/null > "$dir/new.txt"
  PATH="$dir/new:$PATH" git speed pack --budget 3000 --compact "$r" 2>/dev/null > "$dir/compact.txt"
  printf "%-4s %8s %8s %5s %8s %8s %5s %8s %8s\n" "r$i" $(count < "$dir/base.txt") $(items < "$dir/base.txt") \
    $(count < "$dir/new.txt") $(items < "$dir/new.txt") $(count < "$dir/compact.txt")
done
