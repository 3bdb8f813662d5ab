# Shared helpers of the bench/ scripts (sourced, not run).
set -euo pipefail

# median of numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) {print "nan"} else if (NR%2) {print a[(NR+1)/2]} else {print (a[NR/2]+a[NR/2+1])/2}}'; }

# build_git_speed DIR: builds the git-speed binary of this checkout into DIR.
build_git_speed() {
  local root; root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  (cd "$root" && go build -o "$1/git-speed" ./cmd/git-speed)
}

# goroot_corpus DIR: the Go distribution's src committed into a repository at DIR.
goroot_corpus() {
  local dir=$1
  if [ ! -d "$dir/.git" ]; then
    cp -r "$(go env GOROOT)/src" "$dir"
    git -C "$dir" init -q
    git -C "$dir" add -A
    git -C "$dir" -c user.name=bench -c user.email=bench@example.com commit -qm src
  fi
}

# timed OUT CMD...: runs CMD, appending "wall_s maxrss_kb cpu_s" to OUT
# (cpu: user + system time of CMD and its children, git included). On a
# shared machine CPU time moves less with the neighbours' load than wall
# time does.
timed() {
  local out=$1; shift
  /usr/bin/time -f '%e %M %U %S' -o "$out.tmp" "$@" >/dev/null 2>&1 || { cat "$out.tmp" >&2; return 1; }
  awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' "$out.tmp" >> "$out"; rm -f "$out.tmp"
}

# ratio A B: A / B to two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

# packs_mark FILE: lists the object database's pack files as they are now.
# empty_store FILE then deletes refs/speed/* and every pack file made since,
# so that the next index builds its store from nothing, as a first build
# does: deleting the refs alone leaves the store's objects in place, and a
# build that finds its objects stored skips writing them (on kubernetes that
# hid 5 s of a 20 s build). The few loose objects of each run's last commit
# stay; git-speed never repacks, and the scripts' own commits run with
# gc.auto=0, so no pack made since the mark holds anything else.
packs_mark() { ls "$(git rev-parse --git-common-dir)/objects/pack" | sort > "$1"; }
empty_store() {
  local dir; dir="$(git rev-parse --git-common-dir)/objects/pack"
  git for-each-ref --format='%(refname)' refs/speed/ | xargs -r -n1 git update-ref -d
  ls "$dir" | sort | comm -13 "$1" - | sed "s|^|$dir/|" | xargs -r rm -f
}
