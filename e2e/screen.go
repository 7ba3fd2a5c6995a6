package e2e

import (
	"regexp"
	"strings"

	"github.com/zoneline/zoneline/internal/termcolor"
)

// This file reads what tmux's `capture-pane -p -e` prints: text with SGR
// escape codes (ESC [ … m), read by termcolor (Cells, Strip). It is pure, so it
// builds everywhere.

// ColorAt returns the foreground colour of the first cell of the first match
// of word in cells, and whether word was found.
func ColorAt(cells []termcolor.Cell, word string) (termcolor.Color, bool) {
	rs := []rune(word)
	for i := 0; i+len(rs) <= len(cells); i++ {
		match := true
		for j, r := range rs {
			if cells[i+j].R != r {
				match = false
				break
			}
		}
		if match {
			return cells[i].FG, true
		}
	}
	return termcolor.Color{}, false
}

var borderRE = regexp.MustCompile(`^\s*─{20,}\s*$`)

// modeLineRE matches Claude Code's own footer under the status line.
var modeLineRE = regexp.MustCompile(`(?i)^\s*(⏸|⏵|\? for shortcuts)|mode on\b`)

// StatusArea returns the lines below the prompt box (after its bottom
// border) of a screen, plain or ANSI, as printed, up to Claude Code's own
// mode/footer line. Claude Code renders the statusLine command's output
// there, one row per line, indented two columns. It returns nil when no
// prompt box is found, and an empty slice when the area is blank.
func StatusArea(screen string) []string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	last := -1
	for i, l := range lines {
		if borderRE.MatchString(termcolor.Strip(l)) {
			last = i
		}
	}
	if last < 0 {
		return nil
	}
	out := []string{}
	for _, l := range lines[last+1:] {
		plain := termcolor.Strip(l)
		if strings.TrimSpace(plain) == "" || modeLineRE.MatchString(plain) {
			break
		}
		out = append(out, l)
	}
	return out
}
