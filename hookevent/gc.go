package hookevent

import (
	"time"

	"github.com/zoneline/zoneline/config"
)

// collectGarbage runs the state dir's garbage collection at most once a day (a stamp file in the
// state dir): session folders untouched for [state] gc_days, and temp files left by killed
// writes. SessionStart calls it when a session starts up; it registers no handler itself.
func collectGarbage(c *Context) {
	days := c.cfg().State.GCDays
	if days < 1 {
		days = config.Default().State.GCDays
	}
	res, ran, err := c.State.GCDaily(time.Duration(days)*24*time.Hour, c.now())
	switch {
	case err != nil:
		c.State.Log("hook", "gc: %v", err)
	case ran && (len(res.Sessions) > 0 || res.Temps > 0 || res.Planted > 0 || res.Git > 0):
		c.State.Info("hook", "gc: removed %d sessions older than %d days, %d git cache entries, %d temp files, %d planted links", len(res.Sessions), days, res.Git, res.Temps, res.Planted)
	}
}
