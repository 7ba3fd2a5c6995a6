package textfold

import (
	"regexp"
	"testing"
)

func TestPrefixAndContains(t *testing.T) {
	tests := []struct {
		s, lit string
		n      int
		ok     bool
	}{
		{"Keep going", "keep", 4, true},
		{"\u212aeep", "keep", 6, true},
		{"\u017ftop", "stop", 5, true},
		{"KEEP", "keep", 4, true},
		{"kee", "keep", 0, false},
		{"", "", 0, true},
		{"ké", "ke", 0, false},
	}
	for _, tt := range tests {
		n, ok := Prefix(tt.s, tt.lit)
		if n != tt.n || ok != tt.ok {
			t.Errorf("Prefix(%q, %q) = %d, %v", tt.s, tt.lit, n, ok)
		}
		re := regexp.MustCompile("(?i)^" + regexp.QuoteMeta(tt.lit))
		if want := re.MatchString(tt.s); ok != want {
			t.Errorf("Prefix(%q, %q) ok=%v, regexp %v", tt.s, tt.lit, ok, want)
		}
	}
	if !Contains("a Compaction \u212blocked", "compaction") || Contains("compactio", "compaction") {
		t.Error("Contains")
	}
}

func FuzzPrefix(f *testing.F) {
	f.Add("Keep going", "keep")
	f.Add("\u017ftop", "stop")
	f.Fuzz(func(t *testing.T, s, lit string) {
		for i := 0; i < len(lit); i++ {
			if c := lit[i]; c < 'a' || c > 'z' {
				return // lower-case ASCII letters only, as the callers pass
			}
		}
		re := regexp.MustCompile("(?i)^" + regexp.QuoteMeta(lit))
		_, ok := Prefix(s, lit)
		if want := re.MatchString(s); ok != want {
			t.Fatalf("Prefix(%q, %q) = %v, regexp %v", s, lit, ok, want)
		}
		if want := regexp.MustCompile("(?i)" + regexp.QuoteMeta(lit)).MatchString(s); Contains(s, lit) != want {
			t.Fatalf("Contains(%q, %q) = %v, regexp %v", s, lit, !want, want)
		}
	})
}
