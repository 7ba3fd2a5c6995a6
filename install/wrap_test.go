package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zoneline/zoneline/internal/testtmp"
)

func TestWrapCommand(t *testing.T) {
	for _, cmd := range []string{"ccstatusline", "npx -y ccstatusline@latest", `bash -c 'echo "$X"'`, "it's"} {
		w := WrapCommand("/home/u/.local/bin/zoneline", cmd, "linux")
		if !IsOurs(w, SubStatusline) {
			t.Errorf("%q: not recognised as ours", w)
		}
		if got := Wrapped(w); got != cmd {
			t.Errorf("Wrapped(%q) = %q, want %q", w, got, cmd)
		}
	}
	if IsOurs("zoneline statusline -wrap x | head", SubStatusline) {
		t.Error("a pipeline after -wrap's value is the user's own command")
	}
	if Wrapped("zoneline statusline") != "" || Wrapped("zoneline statusline -wrap=abc") != "abc" {
		t.Error("Wrapped")
	}
}

// TestUninstallHandWrapped: a wrap written by hand (no install record of what it replaced)
// is taken apart on uninstall, leaving the wrapped command as the status line.
func TestUninstallHandWrapped(t *testing.T) {
	dir := testtmp.Dir(t)
	p := filepath.Join(dir, "settings.json")
	os.WriteFile(p, []byte(`{"statusLine": {"type": "command", "command": "zoneline statusline -wrap 'npx -y ccstatusline@latest'", "padding": 0}}`), 0o644)
	if _, err := Uninstall(Options{Settings: p, ClaudeDir: dir, GOOS: "linux"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if !strings.Contains(string(b), `"command": "npx -y ccstatusline@latest"`) || strings.Contains(string(b), "zoneline") {
		t.Errorf("after uninstall:\n%s", b)
	}
}

// TestWrappedDoubleQuotes: a hand-written wrap in double quotes is read as sh reads it: a
// backslash escapes only $ ` " \ and a newline there, and stays before anything else.
func TestWrappedDoubleQuotes(t *testing.T) {
	for _, tt := range []struct{ cmd, want string }{
		{`zoneline statusline -wrap "npx -y ccstatusline@latest"`, "npx -y ccstatusline@latest"},
		{`zoneline statusline -wrap "printf \"%s\\n\" \$HOME"`, `printf "%s\n" $HOME`},
		{`zoneline statusline -wrap "echo \` + "`" + `date\` + "`" + `"`, "echo `date`"},
		{`zoneline statusline -wrap "a\\\\b"`, `a\\b`},
		{`zoneline statusline -wrap "a\qb"`, `a\qb`},
		{"zoneline statusline -wrap \"long \\\nline\"", "long line"},
		{`zoneline statusline -wrap 'single \"kept\"'`, `single \"kept\"`},
	} {
		if got := Wrapped(tt.cmd); got != tt.want {
			t.Errorf("Wrapped(%q) = %q, want %q", tt.cmd, got, tt.want)
		}
	}
}

// TestUninstallRepointedWrap: after install -wrap the user points the wrap at another command;
// uninstall leaves that command, unwrapped, and says so, instead of the one install recorded.
// Unchanged, the recorded statusLine comes back byte for byte.
func TestUninstallRepointedWrap(t *testing.T) {
	const bin = "/opt/zl/zoneline"
	for _, repoint := range []bool{false, true} {
		dir := testtmp.Dir(t)
		p := filepath.Join(dir, "settings.json")
		orig := `{"statusLine": {"type": "command", "command": "toolA --old", "padding": 2}}`
		os.WriteFile(p, []byte(orig), 0o644)
		o := Options{Settings: p, ClaudeDir: dir, Bin: bin, GOOS: "linux", Wrap: true}
		if _, err := Install(o); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		if !strings.Contains(string(b), "toolA --old") {
			t.Fatalf("install -wrap:\n%s", b)
		}
		if repoint {
			s := strings.Replace(string(b), "-wrap 'toolA --old'", "-wrap 'toolB --new'", 1)
			os.WriteFile(p, []byte(s), 0o644)
		}
		res, err := Uninstall(o)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(p)
		var detail string
		for _, c := range res.Changes {
			if c.Item == "statusLine" {
				detail = c.Action + " " + c.Detail
			}
		}
		switch {
		case !repoint && string(got) != orig:
			t.Errorf("unchanged wrap: uninstall left\n%s\nwant the original back\n%s", got, orig)
		case repoint && (!strings.Contains(string(got), `"command": "toolB --new"`) || strings.Contains(string(got), "toolA") || strings.Contains(string(got), "zoneline")):
			t.Errorf("re-pointed wrap: uninstall left\n%s\nwant toolB --new, unwrapped", got)
		case repoint && (!strings.Contains(detail, "unwrapped") || !strings.Contains(detail, "toolA --old")):
			t.Errorf("re-pointed wrap: the report says %q, want it to say it unwrapped what is there now", detail)
		}
	}
}
