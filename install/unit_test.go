package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIsOurs(t *testing.T) {
	tests := []struct {
		cmd, sub string
		want     bool
	}{
		{"/home/u/.local/bin/zoneline hook", "hook", true},
		{"zoneline hook", "hook", true},
		{"zoneline statusline", "statusline", true},
		{"zoneline statusline", "hook", false},
		{"'/home/a b/bin/zoneline' hook", "hook", true},
		{`"/home/a b/bin/zoneline" hook`, "hook", true},
		{`/home/a\ b/bin/zoneline hook`, "hook", true},
		{`"C:/Users/A B/bin/zoneline.exe" hook`, "hook", true},
		{`C:\Users\a\zoneline.EXE hook`, "hook", true},
		{`& "C:/Program Files/zoneline/zoneline.exe" statusline`, "statusline", true},
		{"ZONELINE_CONFIG=/x zoneline hook", "hook", true},
		{"/usr/bin/zoneline-notify hook", "hook", false},
		{"/opt/notzoneline hook", "hook", false},
		{"bash -c 'zoneline hook'", "hook", false},
		{"echo zoneline hook", "hook", false},
		{"zoneline", "hook", false},
		{"", "hook", false},
		{"/path/zoneline/hook.sh hook", "hook", false},
		{"zoneline statusline | head -1 && ccusage statusline", "statusline", false},
		{"zoneline hook; other-tool", "hook", false},
		{"zoneline statusline -x", "statusline", true},
		// A word with an unquoted shell operator glued to it is the user's composite command.
		{"zoneline statusline -segments=zone&&ccstatusline", "statusline", false},
		{"zoneline statusline -wrap=x|head -1", "statusline", false},
		{"zoneline statusline -segments zone;other", "statusline", false},
		{"zoneline statusline>/tmp/x", "statusline", false},
		{"zoneline statusline -wrap $(evil)", "statusline", false},
		{"zoneline statusline -wrap `evil`", "statusline", false},
		{"zoneline hook<in", "hook", false},
		{"zoneline statusline -wrap 'a | b && c; $(d)'", "statusline", true},
		{`zoneline statusline -wrap "a | b"`, "statusline", true},
		{"zoneline statusline -segments zone,tokens", "statusline", true},
		// A quoted expansion is one word; a newline ends the command; a comment is the user's.
		{`zoneline statusline -wrap "$HOME/bin/bar"`, "statusline", true},
		{"zoneline hook\n", "hook", true},
		{"zoneline\nhook", "hook", false},
		{"zoneline statusline # mine", "statusline", false},
	}
	for _, tt := range tests {
		if got := IsOurs(tt.cmd, tt.sub); got != tt.want {
			t.Errorf("IsOurs(%q, %q) = %v, want %v", tt.cmd, tt.sub, got, tt.want)
		}
	}
}

// TestOwnFlags: a zoneline statusLine with flags install does not write is the user's.
func TestOwnFlags(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want bool
	}{
		{"/usr/bin/zoneline statusline", false},
		{"/usr/bin/zoneline statusline -wrap 'ccstatusline -x'", false},
		{"zoneline statusline --wrap=ccstatusline", false},
		{"zoneline statusline -segments zone,tokens", true},
		{"zoneline statusline -wrap x -segments zone", true},
		{"zoneline statusline -segments=zone", true},
	} {
		if got := OwnFlags(tt.cmd); got != tt.want {
			t.Errorf("OwnFlags(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

func TestCommandLine(t *testing.T) {
	tests := []struct {
		bin, goos, want string
	}{
		{"/home/u/.local/bin/zoneline", "linux", "/home/u/.local/bin/zoneline hook"},
		{"/home/a b/zoneline", "darwin", "'/home/a b/zoneline' hook"},
		{"/home/it's/zoneline", "linux", `'/home/it'\''s/zoneline' hook`},
		{`C:\Users\ann\.local\bin\zoneline.exe`, "windows", "C:/Users/ann/.local/bin/zoneline.exe hook"},
		// Git Bash runs a Windows status line: forward slashes, POSIX quoting.
		{`C:\Program Files\zoneline\zoneline.exe`, "windows", `'C:/Program Files/zoneline/zoneline.exe' hook`},
		{`C:\Users\O'Neil\zoneline.exe`, "windows", `'C:/Users/O'\''Neil/zoneline.exe' hook`},
	}
	for _, tt := range tests {
		got := CommandLine(tt.bin, "hook", tt.goos)
		if got != tt.want {
			t.Errorf("CommandLine(%q, %s) = %q, want %q", tt.bin, tt.goos, got, tt.want)
		}
		if !IsOurs(got, "hook") {
			t.Errorf("IsOurs(CommandLine(%q)) = false", tt.bin)
		}
	}
}

func TestParseRoundTrip(t *testing.T) {
	ents, _ := os.ReadDir("testdata/corpus")
	for _, e := range ents {
		data, _ := os.ReadFile(filepath.Join("testdata/corpus", e.Name()))
		d, err := Parse(e.Name(), data)
		if err != nil {
			continue
		}
		if got := d.Bytes(); string(got) != string(data) {
			t.Errorf("%s: an unchanged document is not written back byte for byte:\n%s", e.Name(), UnifiedDiff("in", "out", data, got))
		}
	}
}

func TestIndentKept(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"two", "{\n  \"a\": 1\n}\n", "{\n  \"a\": 1,\n  \"z\": {\n    \"k\": true\n  }\n}\n"},
		{"four", "{\n    \"a\": 1\n}\n", "{\n    \"a\": 1,\n    \"z\": {\n        \"k\": true\n    }\n}\n"},
		{"tabs", "{\n\t\"a\": 1\n}\n", "{\n\t\"a\": 1,\n\t\"z\": {\n\t\t\"k\": true\n\t}\n}\n"},
		{"crlf", "{\r\n  \"a\": 1\r\n}\r\n", "{\r\n  \"a\": 1,\r\n  \"z\": {\r\n    \"k\": true\r\n  }\r\n}\r\n"},
		{"empty", "", "{\n  \"z\": {\n    \"k\": true\n  }\n}\n"},
		{"number text", "{\"n\": 1.50e+3}", "{\n  \"n\": 1.50e+3,\n  \"z\": {\n    \"k\": true\n  }\n}"},
		{"escapes", "{\"s\": \"\\u00e9\\/\"}", "{\n  \"s\": \"\\u00e9\\/\",\n  \"z\": {\n    \"k\": true\n  }\n}"},
	}
	for _, tt := range tests {
		d, err := Parse("f", []byte(tt.in))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if d.Root == nil {
			d.Root = Obj()
		}
		d.Root.Set("z", Obj("k", true))
		if got := string(d.Bytes()); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in        string
		line, col int
		reason    string
	}{
		{"{\n  /* c */ \"a\": 1\n}", 2, 3, "comments"},
		{"{\"a\": 1} // tail", 1, 10, "text after"},
		{"{\"a\": 1}\n{}", 2, 1, "text after"},
		{"{\"a\": [1, 2,]}", 1, 13, "trailing comma"},
		{"{\"a\": tru}", 1, 10, "invalid JSON"},
		{"{\"é\": x}", 1, 7, "invalid JSON"},
		{"{", 1, 2, "cut short"},
	}
	for _, tt := range tests {
		_, err := Parse("s.json", []byte(tt.in))
		pe, ok := err.(*ParseError)
		if !ok {
			t.Errorf("Parse(%q) = %v, want a ParseError", tt.in, err)
			continue
		}
		if pe.Line != tt.line || pe.Col != tt.col || !strings.Contains(pe.Reason, tt.reason) {
			t.Errorf("Parse(%q) = %v, want %d:%d %q", tt.in, pe, tt.line, tt.col, tt.reason)
		}
	}
}

func TestUnifiedDiff(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	b := "1\n2\n3\nfour\n5\n6\n7\n8\n9\n10\n11\n12\n13\n"
	want := `--- a
+++ b
@@ -1,7 +1,7 @@
 1
 2
 3
-4
+four
 5
 6
 7
@@ -10,3 +10,4 @@
 10
 11
 12
+13
`
	if got := UnifiedDiff("a", "b", []byte(a), []byte(b)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := UnifiedDiff("a", "b", nil, []byte("x\n")); got != "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n" {
		t.Errorf("from empty: %q", got)
	}
	if got := UnifiedDiff("a", "b", []byte("x"), []byte("x\n")); !strings.Contains(got, "\\ No newline at end of file") {
		t.Errorf("missing newline not marked: %q", got)
	}
}

// TestProgram: the program a hook or status line command runs, as doctor checks it, read the
// way IsOurs reads the line (quotes, escaped quotes, VAR=value prefixes, PowerShell's &).
func TestProgram(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{"/usr/local/bin/zoneline hook", "/usr/local/bin/zoneline"},
		{"'/home/a b/zoneline' hook", "/home/a b/zoneline"},
		{`'/x/it'\''s/zoneline' statusline`, "/x/it's/zoneline"},
		{`"/x/y z/zoneline" hook`, "/x/y z/zoneline"},
		{"ZONELINE_CONFIG=/c.toml zoneline statusline", "zoneline"},
		{`& "C:/Program Files/zoneline.exe" statusline`, "C:/Program Files/zoneline.exe"},
		{`C:\bin\zoneline.exe hook`, `C:\bin\zoneline.exe`},
		{"", ""},
		{"   ", ""},
	} {
		if got := Program(c.cmd); got != c.want {
			t.Errorf("Program(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}
