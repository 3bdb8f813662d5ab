#!/usr/bin/env bash
# Builds a mixed-language corpus for bench/index.sh: the HEAD tree of each
# git repository given, each under its own folder, plus sources found on
# most machines that have Go, Python and C headers:
#   - part of Python's standard library (the top level and email, json,
#     http, asyncio, unittest);
#   - OpenSSL's headers (/usr/include/openssl);
#   - the C and Go of the Go distribution's runtime/cgo;
#   - up to 200 PHP files of the Google Cloud SDK when it is installed.
# The corpus is committed into a new repository at DIR.
#
#   bench/mixed-corpus.sh DIR [REPO...]
#
# The figures in README.md used the repositories junegunn/fzf,
# charmbracelet/bubbletea, gin-gonic/gin (Go), pallets/click, encode/httpx,
# psf/requests (Python), colinhacks/zod, sindresorhus/ky (TypeScript).
source "$(dirname "$0")/lib.sh"
dir=${1:?usage: bench/mixed-corpus.sh DIR [REPO...]}
shift
if [ -e "$dir" ]; then echo "mixed-corpus: $dir exists; give a new directory" >&2; exit 2; fi
mkdir -p "$dir"
for repo in "$@"; do
  path=$(cd "$repo" && pwd); name=$(basename "$path"); name=${name%.git}
  # a mirror's git directory ("owner+name/repo") is named by its folder
  if [ "$name" = repo ]; then name=$(basename "$(dirname "$path")"); fi
  mkdir -p "$dir/$name"
  git -C "$repo" archive HEAD | tar -x -C "$dir/$name"
done
stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])' 2>/dev/null || true)
if [ -n "$stdlib" ] && [ -d "$stdlib" ]; then
  mkdir -p "$dir/pystdlib"
  cp "$stdlib"/*.py "$dir/pystdlib/"
  for pkg in email json http asyncio unittest; do
    [ -d "$stdlib/$pkg" ] || continue
    (cd "$stdlib" && find "$pkg" -name '*.py' | while read -r f; do
      mkdir -p "$dir/pystdlib/$(dirname "$f")"; cp "$f" "$dir/pystdlib/$f"
    done)
  done
fi
if [ -d /usr/include/openssl ]; then mkdir -p "$dir/c"; cp -r /usr/include/openssl "$dir/c/"; fi
mkdir -p "$dir/c/cgo"; cp -r "$(go env GOROOT)/src/runtime/cgo/." "$dir/c/cgo/"
if [ -d /usr/lib/google-cloud-sdk ]; then
  mkdir -p "$dir/php"
  find /usr/lib/google-cloud-sdk -name '*.php' | sort | head -200 | while read -r f; do
    mkdir -p "$dir/php/$(dirname "$f")"; cp "$f" "$dir/php/$f"
  done
fi
git -C "$dir" init -q
git -C "$dir" add -A
git -C "$dir" -c user.name=bench -c user.email=bench@example.com commit -qm "mixed corpus"
echo "mixed corpus at $dir: $(git -C "$dir" ls-files | wc -l) files"
git -C "$dir" ls-files | sed -n 's/.*\.\([A-Za-z0-9]*\)$/\1/p' | sort | uniq -c | sort -rn | head -8
