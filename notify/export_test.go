package notify

import (
	"os"

	"github.com/zoneline/zoneline/state"
)

// Pending reports whether a nudge waits for the session's next prompt: one stat.
func Pending(dir state.Dir, sessionID string) bool {
	p, err := dir.SessionFile(sessionID, pendingName)
	if err != nil {
		return false
	}
	_, err = os.Lstat(p)
	return err == nil
}
