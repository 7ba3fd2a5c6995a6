package skills

import (
	"bytes"
	"strings"

	"github.com/zoneline/zoneline/internal/shellwords"
)

// Command is how the skill templates name zoneline's checkpoint command: the bare name, found
// on PATH. The plugin (.claude-plugin, which reads this folder as it is) runs them so;
// `zoneline install` writes them with the installed binary's path instead (ForBinary).
const Command = "zoneline checkpoint"

// ForBinary returns a skill file with program (one shell word: the installed binary's
// absolute path, quoted when it needs it, see Word) where the template runs `zoneline
// checkpoint`: in the steps' commands (in backticks) and in the allowed-tools pattern
// Bash(zoneline checkpoint:*), so the installed skills run that binary whatever PATH says, and
// Claude Code allows exactly the commands they run. Prose ("a zoneline checkpoint") is left.
func ForBinary(data []byte, program string) []byte {
	data = bytes.ReplaceAll(data, []byte("`"+Command), []byte("`"+program+" checkpoint"))
	return bytes.ReplaceAll(data, []byte("Bash("+Command+":"), []byte("Bash("+program+" checkpoint:"))
}

// Word quotes path as one word for the POSIX shell the Bash tool runs (Git Bash on Windows,
// hence forward slashes there): unquoted when it holds only safe characters, else in single
// quotes.
func Word(path string, windows bool) string {
	if windows {
		path = strings.ReplaceAll(path, `\`, "/")
	}
	if path != "" && strings.IndexFunc(path, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:@%", r))
	}) < 0 {
		return path
	}
	return "'" + strings.ReplaceAll(path, "'", `'\''`) + "'"
}

// Program returns the program a skill file runs for `checkpoint`, read from its allowed-tools
// pattern Bash(<program> checkpoint:*) and unquoted: "zoneline" for a template (found on PATH),
// an absolute path for an installed skill. ok is false when the file has no such pattern.
func Program(data []byte) (program string, ok bool) {
	for _, line := range strings.Split(string(data), "\n") {
		rest, found := strings.CutPrefix(strings.TrimSpace(line), "allowed-tools:")
		if !found {
			continue
		}
		i := strings.Index(rest, "Bash(")
		j := strings.Index(rest, " checkpoint:*)")
		if i < 0 || j < i {
			return "", false
		}
		return unquote(strings.TrimSpace(rest[i+len("Bash(") : j]))
	}
	return "", false
}

// unquote undoes Word: one shell word, read by internal/shellwords as install reads a command
// line (quotes removed, backslashes kept); ok is false for anything else (more words, an
// operator, an expansion, unbalanced quotes).
func unquote(w string) (string, bool) {
	l := shellwords.ParseKeepBackslash(w) // a hand-written Windows path keeps its backslashes
	if !l.Sure() || len(l.Commands) != 1 || len(l.Ops) != 0 {
		return "", false
	}
	c := l.Commands[0]
	if len(c.Words) != 1 || len(c.Redirects) != 0 || c.Words[0] == "" {
		return "", false
	}
	return c.Words[0], true
}
