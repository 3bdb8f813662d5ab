// Package hooks owns git-speed's git hooks: the post-checkout and post-merge
// scripts that keep the Layer 1 index fresh, how they are installed into the
// repository's hooks directory (honouring core.hooksPath and linked
// worktrees), how they chain with a hook the user already had, how they are
// upgraded and uninstalled, and Run, the body of the hidden
// `git speed hook <name> args…` command those scripts start.
//
// # Chaining scheme
//
// An existing hook is never overwritten. Install renames it to
// "<name>.pre-speed" in the same directory and writes our script under
// "<name>". Our script runs the chained hook first, with the same arguments
// and stdin, and exits with its exit status, so `git checkout` fails or
// succeeds exactly as before. A chained /bin/sh script is sourced by a fresh
// sh whose $0 is the original hook path, so hook managers that dispatch on
// the basename of $0 (husky) keep working. Uninstall removes our script and
// renames "<name>.pre-speed" back, byte for byte.
//
// # Never slowing git
//
// After the chained hook, the script starts `git-speed hook <name> args…` in
// the background with stdin from /dev/null, SIGHUP ignored and output
// appended to <git-dir>/speed/hook.log, and exits at once. Run bounds the
// index with a timeout, takes a lock file so runs do not pile up, logs
// errors and always returns 0. If git-speed is no longer on PATH, the script
// only runs the chained hook. GIT_SPEED_HOOK is exported to the background
// process; a hook that finds it set starts nothing, which stops recursion
// when the index itself runs git commands that fire hooks.
//
// # Versions
//
// Every script carries a marker line "# git-speed hook v<N>" (see Version).
// Install rewrites scripts with a lower N, leaves a higher N alone unless
// forced, and refuses without Force to touch anything it can neither
// recognise nor chain.
package hooks
