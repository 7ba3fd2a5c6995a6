package checkpoint

import (
	"slices"
	"strings"
)

// Targets are the concrete things a checkpoint section names: commands (code spans that are not
// a single path) and files (code spans that are one path, and bare paths or file names).
type Targets struct {
	Commands []string
	Files    []string
}

// Empty reports whether nothing was named.
func (t Targets) Empty() bool { return len(t.Commands) == 0 && len(t.Files) == 0 }

// NextTargets returns what the Next section's action names: its commands and files. Lines that
// state the expected result ("Expected: …") are left out: they say what shows it worked, not
// what to do.
func (c *Checkpoint) NextTargets() Targets {
	s := c.Section("Next")
	if s == nil {
		return Targets{}
	}
	var keep []string
	for _, l := range strings.Split(s.Body, "\n") {
		t := strings.ToLower(strings.TrimLeft(strings.TrimSpace(l), "-*+ "))
		t = strings.TrimLeft(t, "*_")
		if strings.HasPrefix(t, "expected") || strings.HasPrefix(t, "expect:") {
			continue
		}
		keep = append(keep, l)
	}
	return targets(strings.Join(keep, "\n"))
}

// RecoveryTargets returns what the restore's recovery steps touch: the verify commands of the
// External state rows and the files listed under Pointers.
func (c *Checkpoint) RecoveryTargets() Targets {
	var t Targets
	for _, r := range c.External {
		if r.Verify != "" {
			t.Commands = append(t.Commands, r.Verify)
		}
	}
	if s := c.Section("Pointers"); s != nil {
		p := targets(s.Body)
		t.Files = append(t.Files, p.Files...)
	}
	return t
}

// targets collects the code spans and bare paths of text.
func targets(text string) Targets {
	var t Targets
	rest := text
	var outside strings.Builder
	for {
		start, end, ok := nextCodeSpan(rest, 0)
		if !ok {
			outside.WriteString(rest)
			break
		}
		outside.WriteString(rest[:start])
		outside.WriteByte(' ')
		code := strings.TrimSpace(strings.Trim(rest[start:end], "`"))
		rest = rest[end:]
		switch {
		case code == "":
		case isPathToken(code):
			t.Files = appendNew(t.Files, code)
		default:
			t.Commands = appendNew(t.Commands, code)
		}
	}
	for _, w := range strings.Fields(outside.String()) {
		w = strings.Trim(w, "()[]{}<>\"',;:!?*_")
		w = strings.TrimSuffix(w, ".")
		if isPathToken(w) && !strings.Contains(w, "://") {
			t.Files = appendNew(t.Files, w)
		}
	}
	return t
}

// isPathToken reports whether s is one path or file name: no blanks, and a '/' or a file name
// with an extension (hasPath, hasFileName).
func isPathToken(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t\n|;&$`") {
		return false
	}
	return hasPath(s) || hasFileName(s)
}

func appendNew(xs []string, s string) []string {
	if slices.Contains(xs, s) {
		return xs
	}
	return append(xs, s)
}
