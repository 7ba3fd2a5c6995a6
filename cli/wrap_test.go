//go:build unix

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zoneline/zoneline/statusline"
)

func TestParseStatuslineArgs(t *testing.T) {
	tests := []struct {
		args     []string
		segments []string
		wrap     string
		problems int
	}{
		{nil, nil, "", 0},
		{[]string{"-segments", "zone,tokens"}, []string{"zone", "tokens"}, "", 0},
		{[]string{"--segments=zone, compact ,"}, []string{"zone", "compact"}, "", 0},
		{[]string{"-wrap", "ccstatusline --x"}, nil, "ccstatusline --x", 0},
		{[]string{"-wrap=a b", "-segments", "zone"}, []string{"zone"}, "a b", 0},
		{[]string{"-bogus"}, nil, "", 1},
		{[]string{"stray"}, nil, "", 1},
		{[]string{"-wrap"}, nil, "", 1},
	}
	for _, tt := range tests {
		a := parseStatuslineArgs(tt.args)
		if !slices.Equal(a.segments, tt.segments) || a.wrap != tt.wrap || len(a.problems) != tt.problems {
			t.Errorf("%q: %+v", tt.args, a)
		}
	}
}

// statuslineRun runs `zoneline statusline args…` on a 100k payload in dir's world.
func statuslineRun(t *testing.T, dir string, vars map[string]string, args ...string) string {
	t.Helper()
	env := map[string]string{
		"ZONELINE_STATE_DIR": filepath.Join(dir, "state"), "ZONELINE_CONFIG": filepath.Join(dir, "config.toml"),
		"CLAUDE_CONFIG_DIR": filepath.Join(dir, "claude"),
	}
	for k, v := range vars {
		env[k] = v
	}
	e, out, _ := testEnv(t, fixture(t, "statusline-edge-05-ctx-100k.json"), env)
	start := time.Now()
	if code := e.Run(append([]string{"statusline"}, args...)); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	s := strings.TrimSuffix(out.String(), "\n")
	if strings.TrimSpace(s) == "" {
		t.Fatal("blank line")
	}
	return s
}

func logOf(dir string) string {
	b, _ := os.ReadFile(filepath.Join(dir, "state", "zoneline.log"))
	return string(b)
}

// TestSegmentsFlag: -segments prints just those segments, in that order, for every segment
// name; an unknown name is a ⚠, never a blank line.
func TestSegmentsFlag(t *testing.T) {
	dir := t.TempDir()
	all := statuslineRun(t, dir, nil, "-segments", strings.Join(statusline.SegmentNames(), ","))
	if !strings.Contains(all, "WARN") || !strings.Contains(all, "100k/200k") {
		t.Errorf("every segment: %q", all)
	}
	for _, name := range statusline.SegmentNames() {
		got := stripSGR(statuslineRun(t, dir, nil, "-segments", name))
		if strings.Contains(got, "⚠") && name != "problems" {
			t.Errorf("%s: %q", name, got)
		}
		t.Logf("%-12s %q", name, got)
	}
	if got := stripSGR(statuslineRun(t, dir, nil, "-segments", "compact,zone")); !strings.HasPrefix(got, "~67k to compact") || !strings.Contains(got, "WARN") {
		t.Errorf("order: %q", got)
	}
	if got := stripSGR(statuslineRun(t, dir, nil, "-segments", "zone")); got != "● WARN" {
		t.Errorf("zone alone: %q", got)
	}
	for _, args := range [][]string{{"-segments", "zone,nosuch"}, {"-segments", "nosuch"}, {"-segments", ""}, {"-nosuch"}} {
		got := stripSGR(statuslineRun(t, dir, nil, args...))
		if !strings.Contains(got, "⚠") || !strings.Contains(got, "WARN") {
			t.Errorf("%q: %q, want the zone and a ⚠", args, got)
		}
	}
}

func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i++; i < len(s) && !(s[i] >= 0x40 && s[i] <= 0x7e && s[i] != '['); i++ {
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestWrap: the wrapped command's output is shown with zoneline's part, whatever the command
// does; a failed run shows a ⚠ and the last good output marked stale.
func TestWrap(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), mode)
		return p
	}
	esc := "printf '\\033[1;31mred\\033[0m \\033]8;;https://x.example\\033\\\\link\\033]8;;\\033\\\\ \\033[38;2;1;2;3mtrue\\033[0m %s\\n' " + strings.Repeat("w", 150)
	tests := []struct {
		name    string
		cmd     string
		columns string
		want    []string // in the output, SGR removed
		problem string   // in the ⚠ segment ("" none)
		rows    int
	}{
		{"plain", "echo 'their line'", "200", []string{"● WARN", "│ their line"}, "", 1},
		{"stdin and env", "cat >" + filepath.Join(dir, "stdin") + "; echo read", "200", []string{"│ read"}, "", 1},
		{"multi-line", "printf 'one\\ntwo\\n\\nthree\\n'", "200", []string{"│ one", "\ntwo\nthree"}, "", 3},
		{"escape-heavy", esc, "60", []string{"red", "link"}, "", 1},
		{"failing", "echo partial; exit 1", "200", []string{"(stale) their line"}, "exit 1", 1},
		{"non-zero", "exit 3", "200", []string{"(stale) their line"}, "exit 3", 1},
		{"hanging", "sleep 30", "200", []string{"(stale) their line"}, "timed out", 1},
		{"hanging child", "(sleep 30 &); sleep 30", "200", []string{"(stale)"}, "timed out", 1},
		{"silent", "true", "200", []string{"(stale) their line"}, "printed nothing", 1},
		{"missing", filepath.Join(dir, "nope"), "200", []string{"(stale)"}, "command not found", 1},
		{"not executable", script("noexec.sh", "echo x\n", 0o600), "200", []string{"(stale)"}, "not executable", 1},
		{"10 MB", "head -c 10000000 /dev/zero | tr '\\0' 'a'", "200", []string{"│ aaaa"}, "output cut at 64 KiB", 1},
		{"binary", "head -c 100000 /dev/urandom", "200", []string{"(stale)"}, "binary output", 1},
	}
	// The first run leaves a good output for the failing ones to show stale.
	statuslineRun(t, dir, map[string]string{"COLUMNS": "200"}, "-wrap", "echo 'their line'")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "plain" || tt.problem == "" {
				defer statuslineRun(t, dir, map[string]string{"COLUMNS": "200"}, "-wrap", "echo 'their line'")
			}
			os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[statusline]\nwrap_timeout = \"500ms\"\n"), 0o600)
			start := time.Now()
			line := statuslineRun(t, dir, map[string]string{"COLUMNS": tt.columns}, "-wrap", tt.cmd)
			took := time.Since(start)
			plain := stripSGR(line)
			for _, w := range tt.want {
				if !strings.Contains(plain, w) {
					t.Errorf("%q lacks %q", plain, w)
				}
			}
			if !strings.Contains(plain, "● WARN") {
				t.Errorf("zoneline's part is missing: %q", plain)
			}
			if tt.problem != "" && !strings.Contains(plain, "⚠ wrapped: "+tt.problem) {
				t.Errorf("%q lacks ⚠ wrapped: %s", plain, tt.problem)
			}
			if tt.problem == "" && strings.Contains(plain, "⚠") {
				t.Errorf("a ⚠ without a problem: %q", plain)
			}
			if tt.problem != "" && !strings.Contains(logOf(dir), tt.problem) {
				t.Errorf("no log line for %s", tt.problem)
			}
			rows := strings.Split(line, "\n")
			if len(rows) != tt.rows {
				t.Errorf("%d rows, want %d: %q", len(rows), tt.rows, line)
			}
			limit, _ := strconv.Atoi(tt.columns)
			limit -= 2
			for _, r := range rows {
				if w := statusline.Width(r, false); w > limit {
					t.Errorf("row %d cells wide, limit %d: %q", w, limit, r)
				}
				if statusline.Passthrough(r) != r {
					t.Errorf("row with a broken escape or a control byte: %q", r)
				}
			}
			if tt.problem == "timed out" && took > 2*time.Second {
				t.Errorf("a hanging command held the line %v", took)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "stdin")); string(b) != string(fixture(t, "statusline-edge-05-ctx-100k.json")) {
		t.Errorf("the wrapped command's stdin: %d bytes, not the payload", len(b))
	}
}

// TestWrapPositions: before, after, and a line of its own.
func TestWrapPositions(t *testing.T) {
	for _, tt := range []struct{ pos, want string }{
		{"before", "● WARN * │ theirs"},
		{"after", "theirs │ ● WARN *"},
		{"line", "● WARN *\ntheirs"},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[statusline]\nlines = [[\"zone\"]]\nwrap = \"echo theirs\"\nwrap_position = \""+tt.pos+"\"\n"), 0o600)
		got := stripSGR(statuslineRun(t, dir, nil))
		if want := strings.ReplaceAll(tt.want, " *", ""); got != want {
			t.Errorf("%s: %q, want %q", tt.pos, got, want)
		}
	}
}

func TestPassthrough(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[31mred\x1b[0m", "\x1b[31mred\x1b[0m"},
		{"\x1b]8;;http://x\x1b\\l\x1b]8;;\x07", "\x1b]8;;http://x\x1b\\l\x1b]8;;\x07"},
		{"a\x00b\x07c\rd\x08e", "abcde"},
		{"tab\there", "tab here"},
		{"cut \x1b[3", "cut "},
		{"cut \x1b]8;;http", "cut "},
		{"lone \x1b", "lone "},
		{"bad \xff utf", "bad \uFFFD utf"},
		{"bidi \u202e x", "bidi  x"},
		{"\x1b[1;\x00m", "m"},
	} {
		if got := statusline.Passthrough(tt.in); got != tt.want {
			t.Errorf("Passthrough(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// alive reports whether pid is a live process (a zombie counts as gone).
func alive(pid int) bool {
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		_, rest, _ := strings.Cut(string(b), ") ")
		return !strings.HasPrefix(rest, "Z")
	}
	return syscall.Kill(pid, 0) == nil
}

// TestWrapTimeoutKillsGroup: a wrapped command past its deadline is ended with everything it
// started in its group (a background child holding its output included), and its child's
// environment says it runs inside a wrap.
func TestWrapTimeoutKillsGroup(t *testing.T) {
	start := time.Now()
	res := <-startWrapped(`echo "$ZONELINE_WRAPPED"; sleep 30 & echo $!; sleep 30`, nil, wrapLimit, 300*time.Millisecond)
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
	if res.err != errKilled {
		t.Errorf("err %v, want killed", res.err)
	}
	f := strings.Fields(string(res.out))
	if len(f) != 2 || f[0] != "1" {
		t.Fatalf("output %q: want ZONELINE_WRAPPED=1 and the background pid", res.out)
	}
	pid, _ := strconv.Atoi(f[1])
	for end := time.Now().Add(3 * time.Second); alive(pid) && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("background child %d survived the deadline", pid)
	}
}

// TestGroupKillAfterReap: once the wrapped command is reaped, its deadline's kill signals
// nothing (its group id may belong to another process by then); before, it ends the group.
func TestGroupKillAfterReap(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	g := &group{pid: cmd.Process.Pid} // stands for a reused group id
	g.reaped()
	g.kill()
	time.Sleep(50 * time.Millisecond)
	if !alive(g.pid) {
		t.Fatal("a kill after the reap hit the group")
	}
	g = &group{pid: cmd.Process.Pid}
	g.kill()
	if err := cmd.Wait(); err == nil {
		t.Error("a kill before the reap did not end the group")
	}
}

// TestWrapLeaksNothing: a wrapped line's open link or unreset colours end before zoneline's
// part (wrap_position "after": zoneline's part follows theirs on the row).
func TestWrapLeaksNothing(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[statusline]\nwrap_position = \"after\"\n"), 0o600)
	for _, tt := range []struct{ cmd, end string }{
		{`printf '\033]8;;https://example.com\033\\open link never closed\n'`, "\x1b]8;;\x1b\\"},
		{`printf '\033[41;1mred\n'`, "\x1b[0m"},
		{`printf '\033]8;;https://example.com\033\\a very long hyperlinked text that will surely be cut by the fitting because it is long long long long long\033]8;;\033\\ tail\n'`, "\x1b]8;;\x1b\\\x1b[0m"},
	} {
		line := statuslineRun(t, dir, map[string]string{"COLUMNS": "80"}, "-wrap", tt.cmd)
		theirs, _, ok := strings.Cut(line, " │ ")
		if !ok {
			t.Fatalf("no separator: %q", line)
		}
		if !strings.HasSuffix(theirs, tt.end) {
			t.Errorf("%s: their part %q does not end with %q", tt.cmd, theirs, tt.end)
		}
	}
}
