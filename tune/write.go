package tune

import (
	"fmt"
	"strings"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/textdiff"
	"github.com/zoneline/zoneline/zones"
)

// Edit returns the config text with a [[model]] block per suggestion added or updated. It
// edits lines, never re-encodes the file, so comments, spacing and every other key stay as
// they were:
//
//   - a block whose match equals the suggestion's (case-insensitively) gets its warn, dumb and
//     prep values replaced in place (a trailing comment stays), or the missing keys added
//     after its last key;
//   - otherwise a new block goes just before the first [[model]] block whose glob also
//     matches the model (first match wins, so it must come first), or at the end.
//
// The result is checked: it must load without error and resolve each model to the suggested
// thresholds; if not (an earlier glob shadows the block, say), Edit fails and says which.
// windows gives each suggestion's window, for that check.
func Edit(text []byte, sugg []Suggestion, windows []int64) ([]byte, error) {
	lines := splitLines(string(text))
	for _, s := range sugg {
		lines = editOne(lines, s)
	}
	out := []byte(strings.Join(lines, ""))
	cfg, err := config.Parse("config.toml", out)
	if err != nil {
		return nil, fmt.Errorf("zoneline: the edited config would not load (%v); edit the [[model]] blocks by hand", err)
	}
	for i, s := range sugg {
		w := windows[i]
		th, rule := zones.Resolve(cfg.Rules(), s.Match, w)
		if th.Warn != s.Warn || th.Dumb != s.Dumb || !strings.EqualFold(rule.Match, s.Match) {
			return nil, fmt.Errorf("zoneline: after the edit %s still resolves to the block matching %q (warn %d, dumb %d); move that block below the one for %s, or edit by hand",
				s.Match, rule.Match, th.Warn, th.Dumb, s.Match)
		}
	}
	return out, nil
}

// splitLines splits s into lines that keep their "\n"; a last line without one gets one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] += "\n"
	}
	return lines
}

// block is a [[model]] table in the file: its header line and the line after its end.
type block struct {
	start, end int
	match      string
	window     string
}

// tableHeader reports whether line starts a table ([x] or [[x]]), and whether it is
// [[model]].
func tableHeader(line string) (header, model bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "[") {
		return false, false
	}
	if i := strings.IndexByte(t, '#'); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	return true, strings.ReplaceAll(t, " ", "") == "[[model]]"
}

func modelBlocks(lines []string) []block {
	var bs []block
	cur := -1
	for i, l := range lines {
		h, isModel := tableHeader(l)
		if !h {
			continue
		}
		if cur >= 0 {
			bs[cur].end = i
			cur = -1
		}
		if isModel {
			bs = append(bs, block{start: i, end: len(lines)})
			cur = len(bs) - 1
		}
	}
	for i := range bs {
		for _, l := range lines[bs[i].start+1 : bs[i].end] {
			if k, v, _, ok := keyValue(l); ok {
				switch k {
				case "match":
					bs[i].match = unquote(v)
				case "window":
					bs[i].window = unquote(v)
				}
			}
		}
	}
	return bs
}

// keyValue splits `key = value  # comment` into its parts; prefix is everything up to the
// value (indentation, key, " = "), rest everything after it (spacing, comment, newline).
func keyValue(line string) (key, value string, parts [3]string, ok bool) {
	t := strings.TrimLeft(line, " \t")
	if t == "" || t[0] == '#' || t[0] == '[' {
		return "", "", parts, false
	}
	eq := strings.IndexByte(t, '=')
	if eq <= 0 {
		return "", "", parts, false
	}
	key = strings.TrimSpace(t[:eq])
	if strings.ContainsAny(key, " \t\"'.") {
		return "", "", parts, false
	}
	vstart := len(line) - len(t) + eq + 1
	for vstart < len(line) && (line[vstart] == ' ' || line[vstart] == '\t') {
		vstart++
	}
	vend := vstart
	if vend < len(line) && (line[vend] == '"' || line[vend] == '\'') {
		q := line[vend]
		vend++
		for vend < len(line) && line[vend] != q && line[vend] != '\n' {
			if q == '"' && line[vend] == '\\' {
				vend++
			}
			vend++
		}
		if vend < len(line) {
			vend++
		}
	} else {
		for vend < len(line) && !strings.ContainsRune(" \t#\r\n", rune(line[vend])) {
			vend++
		}
	}
	parts = [3]string{line[:vstart], line[vstart:vend], line[vend:]}
	return key, line[vstart:vend], parts, true
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// values returns the TOML values a suggestion writes, by key.
func values(s Suggestion) [][2]string {
	prep := fmt.Sprintf("%q", s.PrepSet)
	if s.PrepSet != "dumb" && s.PrepSet != "warn" {
		prep = underscore(s.Prep)
	}
	return [][2]string{{"warn", underscore(s.Warn)}, {"dumb", underscore(s.Dumb)}, {"prep", prep}}
}

func editOne(lines []string, s Suggestion) []string {
	bs := modelBlocks(lines)
	for _, b := range bs {
		if strings.EqualFold(b.match, s.Match) {
			return updateBlock(lines, b, s)
		}
	}
	newBlock := splitLines("# suggested by zoneline tune\n" + Block(s) + "\n")
	for _, b := range bs {
		if b.match != "" && (zones.Rule{Match: b.match}).Matches(s.Match, 0) {
			at := b.start
			for at > 0 && strings.HasPrefix(strings.TrimSpace(lines[at-1]), "#") { // keep its comment with it
				at--
			}
			return append(lines[:at:at], append(newBlock, lines[at:]...)...)
		}
	}
	if n := len(lines); n > 0 && strings.TrimSpace(lines[n-1]) != "" {
		lines = append(lines, "\n")
	}
	return append(lines, newBlock[:len(newBlock)-1]...)
}

func updateBlock(lines []string, b block, s Suggestion) []string {
	out := append([]string(nil), lines...)
	lastKey := b.start
	done := map[string]bool{}
	want := values(s)
	for i := b.start + 1; i < b.end; i++ {
		k, _, parts, ok := keyValue(out[i])
		if !ok {
			continue
		}
		lastKey = i
		for _, kv := range want {
			if k == kv[0] && !done[k] {
				out[i] = parts[0] + kv[1] + parts[2]
				done[k] = true
			}
		}
	}
	var add []string
	for _, kv := range want {
		if !done[kv[0]] {
			add = append(add, kv[0]+" = "+kv[1]+"\n")
		}
	}
	return append(out[:lastKey+1:lastKey+1], append(add, out[lastKey+1:]...)...)
}

// Diff returns a unified diff of two texts with ctx lines of context, "" when equal.
func Diff(name string, a, b []byte, ctx int) string {
	return textdiff.Unified(name, name+" (suggested)", a, b, ctx)
}

// Changed returns the suggestions that differ from the thresholds in force, with their
// windows, in report order.
func Changed(rep *Report) ([]Suggestion, []int64) {
	var s []Suggestion
	var w []int64
	for _, m := range rep.Models {
		if m.Suggested.Changed {
			s = append(s, m.Suggested)
			w = append(w, m.Window)
		}
	}
	return s, w
}
