package install

import (
	"errors"
	"strings"
)

// wrapStatusLine rewrites a foreign statusLine into zoneline wrapping its command: `zoneline
// statusline -wrap 'THEIR COMMAND'`, its other keys (padding, refreshInterval) kept. The
// statusLine as it was is kept in the record, so uninstall puts it back byte for byte.
func wrapStatusLine(cur *Node, o Options, rec *Record, res *Result) error {
	c := cur.Get("command")
	if cur.Kind != Object || c == nil || c.Kind != String || strings.TrimSpace(c.Str) == "" {
		return errors.New("statusLine has no command to wrap: fix it by hand, or run zoneline install -force")
	}
	rec.ReplacedStatus = cur.Raw()
	was := describe(cur)
	cur.Set("command", FromValue(WrapCommand(o.Bin, c.Str, o.GOOS)))
	res.add("statusLine", Replaced, "zoneline now wraps %s (kept in %s for uninstall)", was, RecordName)
	return nil
}

// WrapCommand returns the statusLine command that runs zoneline wrapping command. The wrapped
// command is one shell word in single quotes: Claude Code runs status lines through sh -c (Git
// Bash on Windows), and zoneline runs it the same way.
func WrapCommand(bin, command, goos string) string {
	return CommandLine(bin, SubStatusline, goos) + " -wrap " + shellQuote(command)
}

// Wrapped returns the command a zoneline statusLine command wraps ("" when it wraps none).
func Wrapped(command string) string {
	w := words(command)
	for i, x := range w {
		if x == "-wrap" || x == "--wrap" {
			if i+1 < len(w) {
				return w[i+1]
			}
		}
		if v, ok := strings.CutPrefix(strings.TrimLeft(x, "-"), "wrap="); ok && strings.HasPrefix(x, "-") {
			return v
		}
	}
	return ""
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
