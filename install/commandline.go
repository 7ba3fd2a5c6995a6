package install

import (
	"slices"
	"strings"

	"github.com/zoneline/zoneline/internal/shellwords"
	"github.com/zoneline/zoneline/skills"
)

// CommandLine returns the shell command Claude Code runs for sub: the binary's path, quoted
// when it needs it, then sub. On Windows Claude Code runs a status line command through Git Bash
// (its own status line guide says so), which takes a backslash as an escape: the path is written
// with forward slashes and quoted as for any POSIX shell.
func CommandLine(bin, sub, goos string) string {
	return skills.Word(bin, goos == "windows") + " " + sub
}

// HookCommand returns the hook entry that runs `zoneline hook`. On Windows it is in Claude Code's
// exec form, the program in "command" and its arguments in "args": no shell parses it, so it runs
// alike whether Claude Code has Git Bash or falls back to PowerShell, spaces in the path
// included. Elsewhere it is a shell command line, as Claude Code has always run hooks.
func HookCommand(bin, goos string) *Node {
	if goos == "windows" {
		return Obj("type", "command", "command", strings.ReplaceAll(bin, `\`, "/"), "args", []*Node{FromValue(SubHook)}, "timeout", HookTimeout)
	}
	return Obj("type", "command", "command", CommandLine(bin, SubHook, goos), "timeout", HookTimeout)
}

// EntryCommand is a hook entry as one command line (for reports and for IsOurs): the shell
// form's command as is, the exec form's program and args quoted as a shell would take them.
func EntryCommand(h *Node) string {
	cmd := h.Get("command").Text()
	args := h.Get("args")
	if args == nil {
		return cmd
	}
	line := skills.Word(cmd, false)
	if args.Kind != Array {
		return line + " ?"
	}
	for _, a := range args.Elems {
		if a.Kind != String {
			return line + " ?"
		}
		line += " " + skills.Word(a.Str, false)
	}
	return line
}

// EntryIsOurs reports whether a hook entry runs zoneline's sub, in the shell or the exec form.
func EntryIsOurs(h *Node, sub string) bool { return IsOurs(EntryCommand(h), sub) }

// IsOurs reports whether command runs zoneline's sub: its program (after any VAR=value
// prefixes or PowerShell's call operator) has the base name zoneline or zoneline.exe, its first
// argument is sub, and nothing but flags follows. An unquoted shell operator, redirection,
// expansion, subshell, group or comment anywhere (e.g. `-segments=zone&&other`) makes it the user's own
// composite command. The line is split by internal/shellwords, a hand-written Windows path's
// backslashes kept (ParseKeepBackslash).
func IsOurs(command, sub string) bool {
	l, w := split(command)
	if len(l.Commands) != 1 || l.Splits || l.Compound || l.Cut || l.Comment || len(l.Commands[0].Redirects) > 0 ||
		slices.ContainsFunc(l.Ops, func(op string) bool { return op != "\n" }) {
		return false
	}
	if len(w) < 2 || w[1] != sub {
		return false
	}
	// Only flags may follow: "zoneline statusline | head -1 && other" is the user's own
	// composite command, not ours to replace or remove.
	for i := 2; i < len(w); i++ {
		if !strings.HasPrefix(w[i], "-") {
			return false
		}
		if flag := strings.TrimLeft(w[i], "-"); flag == "wrap" || flag == "segments" {
			i++ // its value: `zoneline statusline -wrap 'their command'`
		}
	}
	base := w[0][strings.LastIndexAny(w[0], `/\`)+1:]
	if len(base) > 4 && strings.EqualFold(base[len(base)-4:], ".exe") {
		base = base[:len(base)-4]
	}
	return base == binaryName
}

// Program returns the program a command line runs, read as IsOurs reads it (after any
// VAR=value prefixes or PowerShell's call operator, quotes removed); "" when it names none.
func Program(command string) string {
	if _, w := split(command); len(w) > 0 {
		return w[0]
	}
	return ""
}

// split reads a command line as IsOurs does, and returns it and its first simple command's
// words from the program on (VAR=value prefixes skipped).
func split(command string) (shellwords.Line, []string) {
	if rest, ok := strings.CutPrefix(strings.TrimLeft(command, " \t"), "&"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		command = rest // PowerShell's call operator: & "C:/…/zoneline.exe" statusline
	}
	l := shellwords.ParseKeepBackslash(command)
	if len(l.Commands) == 0 {
		return l, nil
	}
	w := l.Commands[0].Words
	for len(w) > 0 && isAssignment(w[0]) {
		w = w[1:]
	}
	return l, w
}

// OwnFlags reports whether a zoneline statusLine command (IsOurs) carries flags install does
// not write (it writes none, or -wrap): the user's own choice, e.g. -segments, which install
// keeps as it is and uninstall leaves.
func OwnFlags(command string) bool {
	w := words(command)
	for i := 0; i < len(w); i++ {
		if w[i] != SubStatusline {
			continue
		}
		for j := i + 1; j < len(w); j++ {
			switch f := strings.TrimLeft(w[j], "-"); {
			case f == "wrap":
				j++
			case strings.HasPrefix(f, "wrap="):
			default:
				return true
			}
		}
		return false
	}
	return false
}

func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for _, r := range w[:i] {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// words returns the words of a command line's simple commands, in order (IsOurs's split).
func words(s string) []string {
	var out []string
	for _, c := range shellwords.ParseKeepBackslash(s).Commands {
		out = append(out, c.Words...)
	}
	return out
}
