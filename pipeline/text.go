package pipeline

import (
	"errors"
	"strconv"
	"strings"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/safetext"
)

// rightMargin is the columns Claude Code 2.1.332 keeps free at the right of a status line row,
// beside the indent at its left ([statusline] indent, 2): it shows at most COLUMNS − 4 columns
// of a row, and a row of COLUMNS − 3 is cut with "…" (measured at 57 to 200 columns by
// e2e.TestStatuslineReserve).
const rightMargin = 2

// Reserve is how many of COLUMNS the line must leave to Claude Code: the indent (config, 2 by
// default) and the right margin.
func Reserve(cfg *config.Config) int {
	return cfg.Statusline.Indent + rightMargin
}

// columns returns the width available to the line: COLUMNS minus what Claude Code reserves.
func columns(v string, reserve int) int {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0
	}
	return max(n-reserve, 1)
}

// tmuxSocket returns the socket path from $TMUX ("socket,pid,session").
func tmuxSocket(v string) string {
	sock, _, _ := strings.Cut(v, ",")
	return sock
}

// ConfigProblem is a config's problems in one line: the first, and how many more (for the ⚠
// segment and the log; `config check` lists them all).
func ConfigProblem(err error) string {
	var es config.Errors
	if errors.As(err, &es) && len(es) > 0 {
		return es.Summary()
	}
	return ShortErr(err)
}

// ShortErr is an error as a ⚠ segment shows it: one line, no "zoneline: ", at most 60 runes.
func ShortErr(err error) string {
	return safetext.Cut(strings.TrimPrefix(safetext.Field(err.Error(), 0), "zoneline: "), 60)
}
