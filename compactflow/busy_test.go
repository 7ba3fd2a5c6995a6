package compactflow

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The regexps Busy and compactionBlocked replace: the oracle they must agree with.
var (
	busyRE    = regexp.MustCompile(`(?i)esc to interrupt|Compacting conversation|Do you want to|❯ *1\.|esc to cancel`)
	blockedRE = regexp.MustCompile(`(?i)compaction blocked`)
)

// checkScreenMatchers fails t where Busy or compactionBlocked disagrees with its regexp on s.
func checkScreenMatchers(t *testing.T, s string) {
	t.Helper()
	if got, want := Busy(s), busyRE.MatchString(s); got != want {
		t.Errorf("Busy(%q) = %v, regexp says %v", s, got, want)
	}
	if got, want := compactionBlocked(s), blockedRE.MatchString(s); got != want {
		t.Errorf("compactionBlocked(%q) = %v, regexp says %v", s, got, want)
	}
}

// screenInputs are hand-picked edge cases: case folding (the Kelvin sign and the long s fold to
// k and s under (?i)), the dialog's "❯ 1.", line ends, tabs, invalid UTF-8.
var screenInputs = []string{
	"", "\n", "\r\n", "\xff", "❯", "\xe2\x9d", "\xe2\x9d\xaf", "1.",
	"esc to interrupt", "ESC TO INTERRUPT", "e\u017fc to interrupt", "esc  to interrupt", "esc to\ninterrupt", "esc to interrupt\r\n", "esc to interrup",
	"Compacting conversation", "compacting conver\u017fation", "Compacting\tconversation", "✻ Compacting conversation… (esc to interrupt)",
	"Do you want to proceed?", "do you want to", "Do you want", "DO YOU WANT TO",
	"❯ 1. Yes", "❯1.", "❯    1.", "❯\t1.", "❯ 1", "❯ 2. No", "❯ ❯ 1.", "❯❯1.", "> 1. Yes", "❯ 1,", "❯\n1.", " ❯  1.\r\n",
	"esc to cancel", "e\u017fc to cancel", "Esc to Cancel",
	"compaction blocked", "Compaction blocked by PreCompact hook: [zoneline hook]:\nno fresh checkpoint", "COMPACTION BLOCKED", "compaction  blocked", "compaction bloc\u212aed", "compaction blocke",
	"● Mock reply #3. OK.\n\n╭────╮\n│ >  │\n╰────╯\n",
}

func TestScreenMatchersTable(t *testing.T) {
	tests := []struct {
		in            string
		busy, blocked bool
	}{
		{"esc to interrupt", true, false},
		{"E\u017fC TO CANCEL", true, false},
		{"✻ Compacting conversation…", true, false},
		{"Do you want to make this edit?\n❯ 1. Yes\n  2. No", true, false},
		{"❯  1. Yes", true, false},
		{"❯ 2. No", false, false},
		{"● Mock reply #3. OK.\n\n╭────╮\n│ >  │\n╰────╯\n", false, false},
		{"Compaction blocked by PreCompact hook", false, true},
		{"compaction bloc\u212aed", false, true},
		{"compaction  blocked", false, false},
	}
	for _, tt := range tests {
		if got := Busy(tt.in); got != tt.busy {
			t.Errorf("Busy(%q) = %v, want %v", tt.in, got, tt.busy)
		}
		if got := compactionBlocked(tt.in); got != tt.blocked {
			t.Errorf("compactionBlocked(%q) = %v, want %v", tt.in, got, tt.blocked)
		}
		checkScreenMatchers(t, tt.in)
	}
}

func TestScreenMatchersNasty(t *testing.T) {
	for _, a := range screenInputs {
		for _, b := range screenInputs {
			checkScreenMatchers(t, a+b)
			checkScreenMatchers(t, a+"\n"+b)
		}
	}
	const n = 1 << 16
	for _, s := range []string{
		strings.Repeat("❯ ", n) + "1.", strings.Repeat("❯", n), strings.Repeat(" ", n),
		strings.Repeat("esc to ", n), strings.Repeat("e\u017fc to ", n) + "cancel", strings.Repeat("\xff", n) + "compaction blocked",
	} {
		checkScreenMatchers(t, s)
	}
}

// TestScreenMatchersRandom checks Busy and compactionBlocked against their regexps on many
// screens built from fragments (a fixed seed, so a failure repeats).
func TestScreenMatchersRandom(t *testing.T) {
	fragments := []string{
		"", " ", "  ", "\t", "\n", "\r\n", "❯", "1", ".", "1.", "2.", "\xff", "\xe2\x9d", "\u212a", "\u017f", "…", "e", "s", "k",
		"esc", "ESC", " to ", "to", "interrupt", "cancel", "compacting", "Compacting", "conversation", "do you want", "Do you want to",
		"compaction", "blocked", "bloc", "ed",
	}
	r := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	for range 100000 {
		b.Reset()
		for range r.IntN(8) {
			b.WriteString(fragments[r.IntN(len(fragments))])
		}
		checkScreenMatchers(t, b.String())
		if t.Failed() {
			return
		}
	}
}

// FuzzScreenMatchers checks that Busy and compactionBlocked agree with the regexps they replaced.
func FuzzScreenMatchers(f *testing.F) {
	for _, s := range screenInputs {
		f.Add(s)
	}
	f.Fuzz(checkScreenMatchers)
}
