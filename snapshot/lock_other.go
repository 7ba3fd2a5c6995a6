//go:build !unix

package snapshot

// LockName is the lock file the snapshots folder's writers share.
const LockName = ".lock"

// Lock is a no-op where flock is missing: ok is false, so temp files are never cleaned.
func Lock(path string) (unlock func(), ok bool) { return func() {}, false }

func lock(dir string) (func(), bool) { return Lock(dir) }
