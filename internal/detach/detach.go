// Package detach starts the background helpers of the hot path (the notification companion,
// the git cache's refresher): detached from the statusline or hook that starts them, so that
// they outlive it, get none of Claude Code's signals or console, and are never waited for.
package detach
