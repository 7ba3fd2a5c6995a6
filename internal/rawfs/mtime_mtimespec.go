//go:build darwin || ios || freebsd || netbsd

package rawfs

import (
	"syscall"
	"time"
)

// mtimeOf is st's modification time (Stat_t's field is Mtimespec here, Mtim elsewhere).
func mtimeOf(st *syscall.Stat_t) time.Time { return time.Unix(st.Mtimespec.Unix()) }
