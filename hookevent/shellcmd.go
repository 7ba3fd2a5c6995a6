package hookevent

import (
	"slices"
	"strings"

	"github.com/zoneline/zoneline/internal/shellwords"
)

// The resume check's shell-command classifier. It judges a Bash call's command line without
// running it (internal/shellwords splits it as sh would) and errs towards "not sure":
//
//   - A command is neutral (it only looks: the check skips it) only when every stage of it is
//     on a strict list of viewing commands, each without an option that writes a file or runs
//     a program, its words exactly what sh would run. A substitution or expansion, a
//     redirection (but to /dev/null or another descriptor), a command list (;, &&, ||, &, a
//     newline), an environment assignment before the command or a command named by a path is
//     never neutral. A pipeline of neutral commands is neutral (`git log | head`).
//   - A command does Next only when its words are exactly Next's (a command list of Next's
//     commands, each by its whole argument list, never a prefix), beside at most cd and
//     neutral stages (`cd web && npm test 2>&1 | tail -20`). `npm publish` is not
//     `npm publish --tag beta`; `go test ./... $(rm -rf ~)` is not `go test ./...`.

// isNextCommand reports whether cmd runs one of nexts: cmd's words are Next's, or every simple
// command of Next (cd left out) is one of cmd's, word for word, and every other command of cmd
// is a cd or neutral, with nothing in cmd expanding and no redirection into a file.
func isNextCommand(cmd string, nexts []string) bool {
	got := shellwords.Parse(cmd)
	if !got.Sure() || len(got.Commands) == 0 {
		return false
	}
	for _, nc := range nexts {
		want := shellwords.Parse(nc)
		if !want.Sure() {
			continue
		}
		used := make([]bool, len(got.Commands))
		ok, hit := true, false
		for _, w := range want.Commands {
			if isCd(w) {
				continue
			}
			found := false
			for i, g := range got.Commands {
				if !used[i] && slices.Equal(g.Words, w.Words) && sameRedirects(g, w) {
					used[i], found, hit = true, true, true
					break
				}
			}
			if !found {
				ok = false
				break
			}
		}
		for i, g := range got.Commands {
			if ok && !used[i] && !isCd(g) && !neutralCommand(g) {
				ok = false
			}
		}
		if ok && hit {
			return true
		}
	}
	return false
}

// sameRedirects reports whether a command does Next's redirections: the same ones, or only
// harmless ones where Next has none.
func sameRedirects(got, want shellwords.Command) bool {
	if slices.Equal(got.Redirects, want.Redirects) {
		return true
	}
	return len(want.Redirects) == 0 && harmlessRedirects(got)
}

// isCd reports whether a simple command is a cd (it changes nothing the check judges).
func isCd(c shellwords.Command) bool {
	return len(c.Words) > 0 && c.Words[0] == "cd" && len(c.Redirects) == 0
}

// readOnlyCommand reports whether a shell command line only looks (neutral's Bash rule): one
// pipeline, every stage a neutral command (neutralCommand), nothing expanding.
func readOnlyCommand(cmd string) bool {
	l := shellwords.Parse(cmd)
	if !l.Sure() || len(l.Commands) == 0 {
		return false
	}
	for _, op := range l.Ops {
		if op != "|" {
			return false // a command list
		}
	}
	for _, c := range l.Commands {
		if !neutralCommand(c) {
			return false
		}
	}
	return true
}

// harmlessRedirects reports whether a command's redirections write no file: to /dev/null, or
// from one descriptor to another (2>&1).
func harmlessRedirects(c shellwords.Command) bool {
	for _, r := range c.Redirects {
		switch {
		case r.Target == "/dev/null":
		case (r.Op == ">&" || r.Op == "<&") && (r.Target == "1" || r.Target == "2" || r.Target == "-"):
		default:
			return false
		}
	}
	return true
}

// neutralCommand reports whether one simple command only looks: its program on the strict list
// (by name, not a path; no VAR=value before it), none of its options writing a file or running
// a program, its redirections harmless.
func neutralCommand(c shellwords.Command) bool {
	if len(c.Words) == 0 || !harmlessRedirects(c) || strings.ContainsAny(c.Words[0], "/=") {
		return false
	}
	w, args := c.Words[0], c.Words[1:]
	switch w {
	case "cd", "pwd", "ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "stat", "which", "echo", "true", "nl", "du", "df", "cut", "jq", "diff", "realpath", "basename", "dirname":
		return true
	case "date":
		return !hasOption(args, "-s", "--set")
	case "file":
		return !hasOption(args, "-C", "--compile")
	case "rg":
		// --pre runs a program on every file; -z runs decompressors.
		return !hasOption(args, "--pre", "--pre-glob", "-z", "--search-zip")
	case "tree":
		// -o writes the listing to a file; -R writes one in every folder.
		return !hasOption(args, "-o", "-R", "--output")
	case "uniq":
		return uniqReadOnly(args)
	case "sed":
		return sedReadOnly(args)
	case "find":
		return !slices.ContainsFunc(args, func(a string) bool {
			return a == "-delete" || a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir" || strings.HasPrefix(a, "-fprint") || a == "-fls"
		})
	case "git":
		return readOnlyGit(args)
	}
	return false
}

// hasOption reports whether args hold one of opts: as a word, as a long option with "=value",
// or (a one-letter option "-x") inside a cluster of short options ("-ao").
func hasOption(args []string, opts ...string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		for _, o := range opts {
			switch {
			case a == o, strings.HasPrefix(o, "--") && strings.HasPrefix(a, o+"="):
				return true
			case len(o) == 2 && len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], o[1]) >= 0:
				return true
			}
		}
	}
	return false
}

// uniqReadOnly: uniq's second operand is the file it writes; read-only with one operand at
// most (-f, -s and -w take a value).
func uniqReadOnly(args []string) bool {
	operands := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || a == "-s" || a == "-w":
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			operands++
		}
	}
	return operands <= 1
}

// sedReadOnly: sed only prints with -n and a script of print commands (addresses and p or =):
// no -i, no script file, no e (runs a command), w (writes a file) or r (reads one) command.
func sedReadOnly(args []string) bool {
	quiet, script := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n" || a == "--quiet" || a == "--silent":
			quiet = true
		case a == "-e" || a == "--expression":
			if i+1 >= len(args) || !sedPrintScript(args[i+1]) {
				return false
			}
			script = true
			i++
		case strings.HasPrefix(a, "--expression="):
			if !sedPrintScript(strings.TrimPrefix(a, "--expression=")) {
				return false
			}
			script = true
		case a == "-E" || a == "-r" || a == "-s" || a == "-u" || a == "-z" || a == "--posix" || a == "--debug":
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// -i, -f, -l, --in-place, a cluster (-ni): not read as read-only
			if a != "-ne" && a != "-nE" && a != "-En" && a != "-nr" && a != "-rn" {
				return false
			}
			quiet = quiet || strings.Contains(a, "n")
			if a == "-ne" {
				if i+1 >= len(args) || !sedPrintScript(args[i+1]) {
					return false
				}
				script = true
				i++
			}
		case !script:
			if !sedPrintScript(a) {
				return false
			}
			script = true
		}
	}
	return quiet && script
}

// sedPrintScript reports whether a sed script only prints: commands separated by ; or
// newlines, each an optional address (a line number, $, /regex/, first~step), an optional
// second one after a comma, then p or =.
func sedPrintScript(s string) bool {
	for _, cmd := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '\n' }) {
		cmd = strings.TrimSpace(cmd)
		rest, ok := sedAddress(cmd)
		if !ok {
			return false
		}
		if strings.HasPrefix(rest, ",") {
			if rest, ok = sedAddress(strings.TrimSpace(rest[1:])); !ok {
				return false
			}
		}
		if rest = strings.TrimSpace(rest); rest != "p" && rest != "=" {
			return false
		}
	}
	return strings.TrimSpace(s) != ""
}

// sedAddress reads an optional address at the start of s and returns the rest.
func sedAddress(s string) (string, bool) {
	switch {
	case s == "":
		return s, true
	case s[0] == '$':
		return s[1:], true
	case s[0] == '/':
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '/':
				return s[i+1:], true
			}
		}
		return "", false
	}
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
		i++
	}
	return s[i:], true
}

// readOnlyGit: git's read-only subcommands, with the global options that change nothing
// (-C, --no-pager, --no-optional-locks). `-c` is never read-only: core.fsmonitor, core.pager,
// diff.external and an alias run programs. Options that write a file (--output) or run a
// program (--ext-diff, --textconv, --filters, grep's -O) are not either.
func readOnlyGit(w []string) bool {
	for len(w) > 0 {
		switch {
		case w[0] == "-C" && len(w) > 1:
			w = w[2:]
			continue
		case w[0] == "--no-pager" || w[0] == "--no-optional-locks" || w[0] == "-P":
			w = w[1:]
			continue
		}
		break
	}
	if len(w) == 0 || slices.ContainsFunc(w, func(a string) bool {
		return strings.HasPrefix(a, "--output") || strings.HasPrefix(a, "--ext-diff") || strings.HasPrefix(a, "--textconv") ||
			strings.HasPrefix(a, "--filters") || strings.HasPrefix(a, "--open-files-in-pager") || strings.HasPrefix(a, "-O") ||
			strings.HasPrefix(a, "--exec")
	}) {
		return false
	}
	args := w[1:]
	switch w[0] {
	case "status", "log", "diff", "show", "rev-parse", "ls-files", "ls-tree", "blame", "describe", "shortlog", "cat-file", "grep", "rev-list", "merge-base":
		return true
	case "branch":
		list := false
		for _, a := range args {
			switch a {
			case "--list", "-l", "--show-current":
				list = true
			case "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--no-color", "--color", "--merged", "--no-merged", "--contains":
			default:
				if !list || strings.HasPrefix(a, "-") {
					return false
				}
			}
		}
		return true
	case "stash", "worktree":
		return len(args) == 1 && args[0] == "list"
	case "remote":
		return len(args) == 0 || len(args) == 1 && (args[0] == "-v" || args[0] == "--verbose")
	case "reflog":
		return len(args) == 0 || args[0] == "show" || strings.HasPrefix(args[0], "-")
	}
	return false
}

// isRecoveryCommand reports whether a Bash call is a recovery step the restore asked for:
// every simple command of it is one of the recovery commands (word for word), a zoneline
// command, a cd or neutral, with nothing expanding and no redirection into a file.
func isRecoveryCommand(cmd string, recovery []string) bool {
	l := shellwords.Parse(cmd)
	if !l.Sure() || len(l.Commands) == 0 {
		return false
	}
	hit := false
	for _, c := range l.Commands {
		switch {
		case len(c.Words) > 0 && c.Words[0] == "zoneline" && harmlessRedirects(c):
			hit = true
		case slices.ContainsFunc(recovery, func(rc string) bool {
			r := shellwords.Parse(rc)
			return r.Sure() && len(r.Commands) == 1 && slices.Equal(r.Commands[0].Words, c.Words) && sameRedirects(c, r.Commands[0])
		}):
			hit = true
		case isCd(c) || neutralCommand(c):
		default:
			return false
		}
	}
	return hit
}
