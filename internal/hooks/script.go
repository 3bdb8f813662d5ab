package hooks

import (
	"bytes"
	"strconv"
	"strings"
)

// Version is the version of the hook scripts this package writes. Install
// upgrades any script of ours whose marker carries a lower number.
//
//	0: (never released) ran `git speed index` in the foreground
//	1: chains <name>.pre-speed, starts `git-speed hook` detached, logs to <git-dir>/speed/hook.log
const Version = 1

// Names are the hooks git-speed installs, in the order they are reported.
var Names = []string{"post-checkout", "post-merge"}

// ChainSuffix is appended to a pre-existing hook's name when ours takes its place.
const ChainSuffix = ".pre-speed"

// markerPrefix starts the line that identifies our scripts.
const markerPrefix = "# git-speed hook v"

// markerWindow is how far into a file the marker is looked for.
const markerWindow = 512

// EnvHook is exported by our scripts to the git-speed process they start.
// A hook that sees it set starts nothing, which stops recursion.
const EnvHook = "GIT_SPEED_HOOK"

// Script returns the body of our hook script for the named hook. It is POSIX
// sh (dash compatible) with LF line endings.
func Script(name string) []byte {
	return []byte(strings.ReplaceAll(scriptTemplate, "@NAME@", name))
}

// scriptTemplate is the v1 script. It must stay free of bashisms: it is run
// by /bin/sh, which is dash on Debian and Ubuntu.
const scriptTemplate = `#!/bin/sh
# git-speed hook v1
# Keeps the git-speed index fresh when HEAD's tree changes. Written by
# "git speed hooks install"; "git speed hooks uninstall" removes it and puts
# back the hook it chains. See docs/hooks.md.
#
# A hook that was here before now lives in @NAME@.pre-speed next to this
# file. It runs first, with the same arguments and stdin, and its exit status
# is this hook's exit status. git-speed then runs in the background, so it
# can neither fail nor slow down git; its errors go to <git-dir>/speed/hook.log.
git_speed_status=0
git_speed_chained="$0.pre-speed"
if [ -f "$git_speed_chained" ] && [ -x "$git_speed_chained" ]; then
	git_speed_first=
	{ IFS= read -r git_speed_first; } 2>/dev/null <"$git_speed_chained"
	case $git_speed_first in
	'#!/bin/sh')
		/bin/sh -c 'git_speed_chained=$1; shift; . "$git_speed_chained"' "$0" "$git_speed_chained" "$@"
		git_speed_status=$? ;;
	'#!/usr/bin/env sh')
		sh -c 'git_speed_chained=$1; shift; . "$git_speed_chained"' "$0" "$git_speed_chained" "$@"
		git_speed_status=$? ;;
	*)
		"$git_speed_chained" "$@"
		git_speed_status=$? ;;
	esac
fi
if [ -z "${GIT_SPEED_HOOK:-}" ] && command -v git-speed >/dev/null 2>&1; then
	(
		trap '' HUP
		GIT_SPEED_HOOK=@NAME@
		export GIT_SPEED_HOOK
		git_speed_dir=$(git rev-parse --git-dir) || exit 0
		mkdir -p "$git_speed_dir/speed" || exit 0
		exec git-speed hook @NAME@ "$@" >>"$git_speed_dir/speed/hook.log" 2>&1
	) </dev/null >/dev/null 2>&1 &
fi
exit $git_speed_status
`

// ParseMarker reports whether content is one of our hook scripts and, if so,
// the version in its marker. The marker must be a whole line within the
// first 512 bytes: "# git-speed hook v<N>" with N a decimal number.
func ParseMarker(content []byte) (version int, ours bool) {
	if len(content) > markerWindow {
		content = content[:markerWindow]
	}
	for len(content) > 0 {
		line := content
		if i := bytes.IndexByte(content, '\n'); i >= 0 {
			line, content = content[:i], content[i+1:]
		} else {
			content = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		rest, ok := bytes.CutPrefix(line, []byte(markerPrefix))
		if !ok || len(rest) == 0 || len(rest) > 6 {
			continue
		}
		if rest[0] < '0' || rest[0] > '9' || (rest[0] == '0' && len(rest) > 1) {
			continue // digits only, no sign, no leading zero
		}
		n, err := strconv.Atoi(string(rest))
		if err != nil {
			continue
		}
		return n, true
	}
	return 0, false
}
