//go:build !unix

package atomicfile

// alive reports true: without a portable liveness test no temporary file
// is taken for stale.
func alive(pid int) bool { return true }

// Lock does nothing where flock(2) is missing: groups committed by two
// processes at once may mix there.
func Lock(path string) (unlock func(), err error) { return func() {}, nil }
