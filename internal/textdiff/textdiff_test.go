package textdiff

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAgainstDiffU compares Unified with the system's `diff -u` (the reference) on random
// small texts: the hunks must be the same, line for line.
func TestAgainstDiffU(t *testing.T) {
	diff, err := exec.LookPath("diff")
	if err != nil {
		t.Skip("no diff(1) on this machine")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 11))
	words := []string{"a", "b", "c", "color = \"auto\"", "[statusline]", "", "x = 1"}
	text := func() string {
		var lines []string
		for range rng.IntN(30) {
			lines = append(lines, words[rng.IntN(len(words))])
		}
		s := strings.Join(lines, "\n")
		if rng.IntN(4) > 0 && s != "" {
			s += "\n"
		}
		return s
	}
	for i := range 300 {
		a, b := text(), text()
		pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		os.WriteFile(pa, []byte(a), 0o600)
		os.WriteFile(pb, []byte(b), 0o600)
		out, _ := exec.Command(diff, "-u", "--label", "A", "--label", "B", pa, pb).Output()
		got := Unified("A", "B", []byte(a), []byte(b), 3)
		if string(out) != got {
			// Both are valid diffs when the LCS is not unique; then applying ours must give b.
			if applied, ok := apply(a, got); !ok || applied != b {
				t.Fatalf("case %d: %q → %q\nours:\n%s\ndiff -u:\n%s", i, a, b, got, out)
			}
		}
	}
}

// apply applies a unified diff to a, for checking diffs that differ from diff(1)'s only in
// which of several equal-length alignments they chose.
func apply(a, d string) (string, bool) {
	if d == "" {
		return a, true
	}
	src := strings.SplitAfter(a, "\n")
	if len(src) > 0 && src[len(src)-1] == "" {
		src = src[:len(src)-1]
	}
	var out []string
	pos := 0
	lines := strings.Split(strings.TrimSuffix(d, "\n"), "\n")[2:]
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "@@") {
			var as, an, bs, bn int
			if !parseHunk(l, &as, &an, &bs, &bn) {
				return "", false
			}
			start := as - 1
			if an == 0 {
				start = as
			}
			for pos < start && pos < len(src) {
				out = append(out, src[pos])
				pos++
			}
			continue
		}
		noEOL := i+1 < len(lines) && lines[i+1] == `\ No newline at end of file`
		text := l[1:]
		if !noEOL {
			text += "\n"
		}
		switch l[0] {
		case ' ':
			out = append(out, text)
			pos++
		case '-':
			pos++
		case '+':
			out = append(out, text)
		}
		if noEOL {
			i++
		}
	}
	out = append(out, src[min(pos, len(src)):]...)
	return strings.Join(out, ""), true
}

func parseHunk(l string, as, an, bs, bn *int) bool {
	var a, b string
	if n, _ := fmtSscanf(l, &a, &b); n != 2 {
		return false
	}
	return rangeOf(a, as, an) && rangeOf(b, bs, bn)
}

func fmtSscanf(l string, a, b *string) (int, error) {
	f := strings.Fields(l)
	if len(f) < 4 {
		return 0, nil
	}
	*a, *b = strings.TrimPrefix(f[1], "-"), strings.TrimPrefix(f[2], "+")
	return 2, nil
}

func rangeOf(s string, start, n *int) bool {
	parts := strings.SplitN(s, ",", 2)
	v, err := strconv.Atoi(parts[0])
	if err != nil {
		return false
	}
	*start, *n = v, 1
	if len(parts) == 2 {
		if *n, err = strconv.Atoi(parts[1]); err != nil {
			return false
		}
	}
	return true
}
