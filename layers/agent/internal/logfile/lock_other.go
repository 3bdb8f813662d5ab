//go:build !unix

package logfile

import "os"

// lock is a no-op where flock does not exist; O_APPEND still keeps each
// line whole on local file systems.
func lock(*os.File) error { return nil }
