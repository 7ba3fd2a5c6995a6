package skills

import (
	"strings"
	"testing"
)

// TestForBinary: an installed skill names the binary's path in every command and in its
// allowed-tools pattern, and Program reads the path back, spaces and quotes included.
func TestForBinary(t *testing.T) {
	for _, name := range []string{"compact-prep/SKILL.md", "postcompact/SKILL.md"} {
		tmpl, err := FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := Program(tmpl); !ok || p != "zoneline" {
			t.Errorf("%s: the template runs %q (%v), want zoneline from PATH (the plugin's skills)", name, p, ok)
		}
		for _, bin := range []string{"/home/u/.local/bin/zoneline", "/home/u/my tools/zoneline", "/opt/it's/zoneline"} {
			word := Word(bin, false)
			got := string(ForBinary(tmpl, word))
			if strings.Contains(got, "`zoneline checkpoint") || strings.Contains(got, "Bash(zoneline") {
				t.Errorf("%s for %s still runs the bare zoneline:\n%s", name, bin, got)
			}
			if want := "allowed-tools: Bash(" + word + " checkpoint:*)"; !strings.Contains(got, want) {
				t.Errorf("%s for %s lacks %q", name, bin, want)
			}
			if want := "`" + word + " checkpoint "; !strings.Contains(got, want) {
				t.Errorf("%s for %s: no step runs %q", name, bin, want)
			}
			front, _, _ := strings.Cut(strings.TrimPrefix(got, "---\n"), "\n---\n")
			for _, l := range strings.Split(front, "\n") {
				if strings.HasPrefix(l, "description:") && strings.Contains(l, bin) {
					t.Errorf("%s: the description names the binary: %q", name, l)
				}
			}
			if p, ok := Program([]byte(got)); !ok || p != bin {
				t.Errorf("%s: Program = %q, %v; want %q", name, p, ok, bin)
			}
		}
	}
}

func TestWord(t *testing.T) {
	tests := []struct {
		in      string
		windows bool
		want    string
	}{
		{"/usr/local/bin/zoneline", false, "/usr/local/bin/zoneline"},
		{"/home/a b/zoneline", false, "'/home/a b/zoneline'"},
		{"/x/it's/zoneline", false, `'/x/it'\''s/zoneline'`},
		{"/x/$HOME/zoneline", false, "'/x/$HOME/zoneline'"},
		{`C:\Users\a\bin\zoneline.exe`, true, "C:/Users/a/bin/zoneline.exe"},
		{`C:\Program Files\zoneline.exe`, true, "'C:/Program Files/zoneline.exe'"},
	}
	for _, tt := range tests {
		if got := Word(tt.in, tt.windows); got != tt.want {
			t.Errorf("Word(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if back, ok := unquote(Word(tt.in, tt.windows)); !ok || (!tt.windows && back != tt.in) {
			t.Errorf("unquote(Word(%q)) = %q, %v", tt.in, back, ok)
		}
	}
	if got, ok := unquote(`C:\x\zoneline.exe`); !ok || got != `C:\x\zoneline.exe` {
		t.Errorf("unquote of a hand-written Windows path = %q, %v", got, ok)
	}
	for _, w := range []string{"", "a b", "$HOME/zoneline", "'open", "zoneline;rm", "a>b", "''"} {
		if got, ok := unquote(w); ok {
			t.Errorf("unquote(%q) = %q, want no word", w, got)
		}
	}
	if _, ok := Program([]byte("---\nname: x\n---\n")); ok {
		t.Errorf("Program found a pattern in a skill without allowed-tools")
	}
}
