//go:build !unix

package snapshot

// LockName is the lock file a folder's writers share.
const LockName = ".lock"

// Lock is a no-op where flock is missing: ok is false, so temp files are never cleaned.
func Lock(dir string) (unlock func(), ok bool) { return func() {}, false }

func lock(dir string) (func(), bool) { return Lock(dir) }
