//go:build unix && !(darwin || ios || freebsd || netbsd)

package rawfs

import (
	"syscall"
	"time"
)

// mtimeOf is st's modification time (Stat_t's field is Mtim here, Mtimespec on the BSDs).
func mtimeOf(st *syscall.Stat_t) time.Time { return time.Unix(st.Mtim.Unix()) }
