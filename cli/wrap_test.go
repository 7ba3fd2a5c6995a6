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

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/internal/termcolor"
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

// wrapSession is the session of the fixture statuslineRun renders.
const wrapSession = "aaa8e696-ca66-4fcf-8fb3-651eb7e68c12"

// refreshRun runs `zoneline wrap-refresh -session wrapSession -wrap CMD` in dir's world,
// in-process, with the command of the job the last render kept.
func refreshRun(t *testing.T, dir string) {
	t.Helper()
	e, _, _ := testEnv(t, nil, map[string]string{
		"ZONELINE_STATE_DIR": filepath.Join(dir, "state"), "ZONELINE_CONFIG": filepath.Join(dir, "config.toml"),
		"CLAUDE_CONFIG_DIR": filepath.Join(dir, "claude"),
	})
	job, _ := readWrapJob(filepath.Join(dir, "state", "sessions", wrapSession, wrapJobName))
	if err := e.runWrapRefresh(wrapSession, job.cmd, 0); err != nil {
		t.Fatal(err)
	}
}

// wrapRun is a render, the refresh it asks for, and the render after: what the next turn shows.
func wrapRun(t *testing.T, dir string, vars map[string]string, args ...string) string {
	t.Helper()
	statuslineRun(t, dir, vars, args...)
	refreshRun(t, dir)
	return statuslineRun(t, dir, vars, args...)
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
		got := termcolor.Strip(statuslineRun(t, dir, nil, "-segments", name))
		if strings.Contains(got, "⚠") && name != "problems" {
			t.Errorf("%s: %q", name, got)
		}
		t.Logf("%-12s %q", name, got)
	}
	if got := termcolor.Strip(statuslineRun(t, dir, nil, "-segments", "compact,zone")); !strings.HasPrefix(got, "~67k to compact") || !strings.Contains(got, "WARN") {
		t.Errorf("order: %q", got)
	}
	if got := termcolor.Strip(statuslineRun(t, dir, nil, "-segments", "zone")); got != "● WARN" {
		t.Errorf("zone alone: %q", got)
	}
	for _, args := range [][]string{{"-segments", "zone,nosuch"}, {"-segments", "nosuch"}, {"-segments", ""}, {"-nosuch"}} {
		got := termcolor.Strip(statuslineRun(t, dir, nil, args...))
		if !strings.Contains(got, "⚠") || !strings.Contains(got, "WARN") {
			t.Errorf("%q: %q, want the zone and a ⚠", args, got)
		}
	}
}

// TestWrap: the wrapped command's output (run by the refresher) is shown with zoneline's part
// by the next render, whatever the command does; a failed run shows a ⚠ and the last good
// output marked stale.
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
	wrapRun(t, dir, map[string]string{"COLUMNS": "200"}, "-wrap", "echo 'their line'")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "plain" || tt.problem == "" {
				defer wrapRun(t, dir, map[string]string{"COLUMNS": "200"}, "-wrap", "echo 'their line'")
			}
			os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[statusline]\nwrap_timeout = \"500ms\"\n"), 0o600)
			vars := map[string]string{"COLUMNS": tt.columns}
			statuslineRun(t, dir, vars, "-wrap", tt.cmd)
			refreshRun(t, dir)
			line := statuslineRun(t, dir, vars, "-wrap", tt.cmd)
			plain := termcolor.Strip(line)
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
		got := termcolor.Strip(wrapRun(t, dir, nil))
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
	done, _ := startWrapped(`echo "$ZONELINE_WRAPPED"; sleep 30 & echo $!; sleep 30`, "", nil, wrapLimit, 300*time.Millisecond)
	res := <-done
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
		line := wrapRun(t, dir, map[string]string{"COLUMNS": "80"}, "-wrap", tt.cmd)
		theirs, _, ok := strings.Cut(line, " │ ")
		if !ok {
			t.Fatalf("no separator: %q", line)
		}
		if !strings.HasSuffix(theirs, tt.end) {
			t.Errorf("%s: their part %q does not end with %q", tt.cmd, theirs, tt.end)
		}
	}
}

// TestWrapLive: a render under Claude Code never runs the wrapped command: the first shows the
// stand-in, the refresher's output shows from the next one, and an output that falls
// wrapStaleRenders payloads behind with no run ended within the deadline is marked stale; an
// unchanged payload keeps the job as is.
func TestWrapLive(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[statusline]\nlines = [[\"zone\"]]\nwrap = \"cat >/dev/null; echo theirs\"\n"), 0o600)
	job := filepath.Join(dir, "state", "sessions", wrapSession, wrapJobName)
	if got := termcolor.Strip(statuslineRun(t, dir, nil)); got != "● WARN │ "+wrapPending {
		t.Errorf("first render: %q", got)
	}
	first, _ := os.Stat(job)
	if got := termcolor.Strip(statuslineRun(t, dir, nil)); got != "● WARN │ "+wrapPending {
		t.Errorf("before the refresher ran: %q", got)
	}
	if again, _ := os.Stat(job); first == nil || again == nil || !os.SameFile(first, again) {
		t.Errorf("the same payload rewrote the job")
	}
	refreshRun(t, dir)
	if got := termcolor.Strip(statuslineRun(t, dir, nil)); got != "● WARN │ theirs" {
		t.Errorf("after the refresh: %q", got)
	}
	// Other payloads, no refresher: the kept output is one, two, three, then four renders
	// behind; stale only once, past the wrapped command's deadline, no run has ended either.
	for i, tt := range []struct {
		later time.Duration
		want  string
	}{
		{0, "● WARN │ theirs"},
		{0, "● WARN │ theirs"},
		{0, "● WARN │ theirs"},
		{config.DefaultWrapTimeout + time.Second, "● WARN │ (stale) theirs"},
	} {
		p := strings.Replace(string(fixture(t, "statusline-edge-05-ctx-100k.json")), "{", "{\"n\":"+strconv.Itoa(i)+",", 1)
		e, out, _ := testEnv(t, []byte(p), map[string]string{
			"ZONELINE_STATE_DIR": filepath.Join(dir, "state"), "ZONELINE_CONFIG": filepath.Join(dir, "config.toml"),
		})
		e.Now = func() time.Time { return time.Now().Add(tt.later) }
		want := tt.want
		e.Run([]string{"statusline"})
		if got := termcolor.Strip(strings.TrimSpace(out.String())); got != want {
			t.Errorf("%d renders behind: %q, want %q", i+1, got, want)
		}
	}
	refreshRun(t, dir)
	if got := termcolor.Strip(statuslineRun(t, dir, nil)); got != "● WARN │ theirs" {
		t.Errorf("caught up: %q", got)
	}
}

// TestWrapFiles: the job and the kept result read back what was written; anything else (a
// file of the older format, a cut or edited header, an unknown deadline) is no file at all.
func TestWrapFiles(t *testing.T) {
	j := wrapJob{seq: 7, cmd: "ccstatusline --x \"a b\"\n", dir: "/p/q r", timeout: 3 * time.Second, stdin: []byte("{\"a\":1}\n\n")}
	if got, ok := decodeWrapJob(j.encode()); !ok || !got.same(j) || got.seq != 7 {
		t.Errorf("job round trip: %+v %v", got, ok)
	}
	k := wrapKept{seq: 9, good: 8, problem: "exit 1", at: time.Unix(0, 1234567), out: []byte("one\ntwo\n")}
	if got, ok := decodeWrapKept(k.encode()); !ok || got.seq != 9 || got.good != 8 || got.problem != "exit 1" || !got.at.Equal(k.at) || string(got.out) != "one\ntwo\n" {
		t.Errorf("result round trip: %+v %v", got, ok)
	}
	for _, bad := range []string{
		"",
		"their line from an older zoneline\n",
		wrapJobHead + "seq 1\ntimeout 1000000000\ndir \"/\"\n\n{}",           // no cmd
		wrapJobHead + "seq 1\ntimeout 1000000000\ndir \"/\"\ncmd \"\"\n\n{}", // empty cmd
		wrapJobHead + "seq -1\ntimeout 1000000000\ndir \"/\"\ncmd \"x\"\n\n{}",
		wrapJobHead + "seq 1\ntimeout 99000000000000\ndir \"/\"\ncmd \"x\"\n\n{}",
		wrapJobHead + "seq 1\ntimeout 1000000000\ndir \"/\"\ncmd x\n\n{}",   // unquoted
		wrapJobHead + "seq 1\ntimeout 1000000000\ndir \"/\"\ncmd \"x\"\n{}", // no blank line
	} {
		if _, ok := decodeWrapJob([]byte(bad)); ok {
			t.Errorf("job %q decoded", bad)
		}
	}
	for _, bad := range []string{
		"their line from an older zoneline\n",
		wrapResultHead + "seq 1\ngood 2\nproblem \"\"\nat 1\n\nx\n", // good after seq
		wrapResultHead + "seq 1\ngood 1\nat 1\n\nx\n",
		wrapResultHead + "seq x\ngood 1\nproblem \"\"\nat 1\n\nx\n",
		wrapResultHead + "seq 1\ngood 1\nproblem \"\"\n\nx\n", // no time
	} {
		if _, ok := decodeWrapKept([]byte(bad)); ok {
			t.Errorf("result %q decoded", bad)
		}
	}
}

// TestWrapRefreshRunsItsOwnCommand: the refresher runs the command on its command line (the
// render's), never one read from the state dir: a job planted there for another command runs
// nothing.
func TestWrapRefreshRunsItsOwnCommand(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "planted-ran")
	sdir := filepath.Join(dir, "state", "sessions", wrapSession)
	os.MkdirAll(sdir, 0o700)
	planted := wrapJob{seq: 1, cmd: "touch " + marker, dir: dir, timeout: time.Second, stdin: []byte("{}")}
	os.WriteFile(filepath.Join(sdir, wrapJobName), planted.encode(), 0o600)
	e, _, _ := testEnv(t, nil, map[string]string{"ZONELINE_STATE_DIR": filepath.Join(dir, "state")})
	if err := e.runWrapRefresh(wrapSession, "echo mine", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the refresher ran the command of a job file")
	}
	if _, err := os.Stat(filepath.Join(sdir, wrapCacheName)); err == nil {
		t.Error("the refresher kept a result for another command's job")
	}
	if err := e.runWrapRefresh(wrapSession, planted.cmd, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("the refresher did not run its own command's job")
	}
}

// TestWrapIgnoresRelativePath: the wrapped command runs in the project with PATH's absolute
// entries only: a program planted in the repository is not found through an empty, "." or
// relative entry, by the shell or by the direct exec of a plain command.
func TestWrapIgnoresRelativePath(t *testing.T) {
	if got := wrappedEnviron([]string{"PATH=:/usr/bin:.:bin::/bin:", "ZONELINE_WRAPPED=0", "A=1"}); !slices.Equal(got, []string{"PATH=/usr/bin:/bin", "A=1", "ZONELINE_WRAPPED=1"}) {
		t.Errorf("wrappedEnviron = %q", got)
	}
	proj := t.TempDir()
	marker := filepath.Join(proj, "planted-ran")
	os.MkdirAll(filepath.Join(proj, "bin"), 0o755)
	for _, p := range []string{filepath.Join(proj, "statusbar"), filepath.Join(proj, "bin", "statusbar")} {
		os.WriteFile(p, []byte("#!/bin/sh\ntouch "+marker+"\necho planted\n"), 0o755)
	}
	t.Setenv("PATH", ".:bin::"+os.Getenv("PATH"))
	for _, cmd := range []string{"statusbar", "statusbar --x; true"} {
		done, _ := startWrapped(cmd, proj, nil, wrapLimit, 5*time.Second)
		res := <-done
		if _, err := os.Stat(marker); err == nil || strings.Contains(string(res.out), "planted") {
			t.Errorf("%q ran the program planted in the project: %q", cmd, res.out)
			os.Remove(marker)
		}
	}
}
