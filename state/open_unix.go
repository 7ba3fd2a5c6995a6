//go:build unix

package state

import "syscall"

// oNoFollow makes the log's open refuse a planted symlink.
const oNoFollow = syscall.O_NOFOLLOW
