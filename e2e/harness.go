//go:build unix

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/procbench"
)

// Timing. A turn against the mock takes about 3 s, mostly the idle wait.
const (
	DefaultTimeout        = 60 * time.Second  // per wait (request, idle, screen)
	DefaultStartupTimeout = 45 * time.Second  // until the prompt box shows (15 s seen on a loaded 2-CPU box)
	CompactTimeout        = 120 * time.Second // a /compact round trip
	idleStable            = 1500 * time.Millisecond
	pollInterval          = 200 * time.Millisecond
	tmuxCmdTimeout        = 10 * time.Second
	mockPortTimeout       = 10 * time.Second
	exitWait              = 5 * time.Second
)

// Request kinds the mock assigns to /v1/messages calls.
const (
	KindMain       = "main"        // a main-conversation turn
	KindToolResult = "tool_result" // a main turn carrying a tool result
	KindCompact    = "compact"     // the summarisation request of a compaction
	KindSide       = "side"        // titles, quota probes and other side calls
	KindFork       = "fork"        // a mod's $.model.fork the mock answered (MockConfig fork_answer)
)

// busyRE matches the screen while Claude Code is working.
var busyRE = regexp.MustCompile(`(?i)esc to interrupt|Compacting conversation`)

// Options configure a Session. The zero value runs the default model with
// empty settings.
type Options struct {
	// Settings is written to $HOME/.claude/settings.json. Strings in it may
	// hold placeholders, replaced first: {{OUT}} (the out dir), {{WORK}},
	// {{HOME}}, {{PROJ}} (the project dir claude runs in), {{MOCK}} (the
	// e2e/mock dir) and {{CAPTURE}} ("python3 <mock dir>/capture.py").
	Settings map[string]any
	// Model becomes ANTHROPIC_MODEL; empty means Claude Code's default
	// (claude-opus-5-5, a 1M window, in 2.1.332).
	Model string
	// Env is added to claude's environment (after the defaults, so it can
	// override them). Values may hold the placeholders above.
	Env map[string]string
	// MockArgs are extra mock_anthropic.py flags, e.g. "--base=20000".
	MockArgs []string
	// ClaudeArgs are extra claude command-line arguments, e.g. "--debug".
	ClaudeArgs []string
	// ClaudeJSON is merged (top level) into the pre-seeded ~/.claude.json.
	ClaudeJSON map[string]any
	// Cols and Rows size the pane; default 200x50.
	Cols, Rows int
	// StartupTimeout bounds the wait for the prompt box (default 45 s).
	StartupTimeout time.Duration
	// Timeout bounds each wait of Prompt, WaitIdle, … (default 60 s).
	Timeout time.Duration
	// BeforeLaunch, when set, runs after the throwaway HOME, settings.json and
	// ~/.claude.json are written and before claude starts: a test can run an
	// installer against s.Home there (it may rewrite settings.json).
	BeforeLaunch func(s *Session)
}

// Session is one interactive Claude Code run in its own tmux server, against
// its own mock, in a throwaway HOME. Create it with Start; it is closed by
// t.Cleanup. Methods that wait fail the test (with the last screen and the
// tail of the mock log) when their timeout passes.
type Session struct {
	t    testing.TB
	opts Options

	Out       string // output: screens/, mock-requests.jsonl, transcripts/, session.json
	Work      string // <Out>/work: home, proj, tmp, launch.sh
	Home      string // the throwaway HOME
	Proj      string // the project dir claude runs in (trusted)
	Tmp       string // TMPDIR
	Sock      string // the tmux socket
	MockDir   string // e2e/mock
	MockLog   string // <Out>/mock-requests.jsonl
	ClaudeBin string
	Port      int // the mock's port on 127.0.0.1

	start     time.Time
	mockCmd   *exec.Cmd
	mockDone  chan struct{}
	mockErr   *os.File
	pidClaude int
	pidTmux   int
	pidMock   int
	screenN   int
	closeOnce sync.Once
	http      *http.Client
}

// Start starts the mock, writes the throwaway HOME, launches claude in a new
// tmux server and waits for the prompt box. It skips t unless ZONELINE_E2E=1
// (see Require) and registers Close with t.Cleanup.
func Start(t testing.TB, opts Options) *Session {
	t.Helper()
	claude := Require(t)
	if opts.Cols == 0 {
		opts.Cols = 200
	}
	if opts.Rows == 0 {
		opts.Rows = 50
	}
	if opts.StartupTimeout == 0 {
		opts.StartupTimeout = DefaultStartupTimeout
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	root, err := procbench.Root()
	if err != nil {
		t.Fatalf("e2e: %v", err)
	}
	s := &Session{
		t: t, opts: opts, ClaudeBin: claude, start: time.Now(),
		MockDir: filepath.Join(root, "e2e", "mock"),
		http:    &http.Client{Timeout: 5 * time.Second},
	}
	s.Out = outDir(t)
	s.Work = filepath.Join(s.Out, "work")
	s.Home = filepath.Join(s.Work, "home")
	s.Proj = filepath.Join(s.Work, "proj")
	s.Tmp = filepath.Join(s.Work, "tmp")
	s.MockLog = filepath.Join(s.Out, "mock-requests.jsonl")
	s.Sock = filepath.Join(s.Work, "tmux.sock")
	if len(s.Sock) > 100 { // sun_path is 108 bytes
		d, err := os.MkdirTemp("", "zl-e2e-tmux-")
		if err != nil {
			t.Fatalf("e2e: %v", err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		s.Sock = filepath.Join(d, "tmux.sock")
	}
	t.Cleanup(s.Close)
	for _, d := range []string{filepath.Join(s.Home, ".claude"), s.Proj, s.Tmp, filepath.Join(s.Out, "screens")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatalf("e2e: %v", err)
		}
	}
	s.startMock()
	s.writeConfig()
	if opts.BeforeLaunch != nil {
		opts.BeforeLaunch(s)
	}
	s.launch()
	s.WaitScreen(regexp.MustCompile(`❯`), opts.StartupTimeout)
	s.WaitIdle(opts.Timeout)
	s.Capture("startup")
	s.logf("started (claude pid %d, tmux pid %d, mock pid %d on port %d)", s.pidClaude, s.pidTmux, s.pidMock, s.Port)
	return s
}

// outDir is $ZONELINE_E2E_OUT/<test name> (emptied first, kept afterwards)
// or a t.TempDir().
func outDir(t testing.TB) string {
	t.Helper()
	base := os.Getenv("ZONELINE_E2E_OUT")
	if base == "" {
		return t.TempDir()
	}
	abs, err := filepath.Abs(base)
	if err != nil {
		t.Fatalf("e2e: ZONELINE_E2E_OUT: %v", err)
	}
	dir := filepath.Join(abs, slug(t.Name(), 80))
	if err := os.RemoveAll(dir); err != nil {
		t.Fatalf("e2e: %v", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("e2e: %v", err)
	}
	return dir
}

func (s *Session) logf(format string, args ...any) {
	s.t.Helper()
	s.t.Logf("e2e %5.1fs: %s", time.Since(s.start).Seconds(), fmt.Sprintf(format, args...))
}

// ---------------------------------------------------------------- setup

func (s *Session) startMock() {
	s.t.Helper()
	portFile := filepath.Join(s.Work, "port")
	f, err := os.Create(filepath.Join(s.Out, "mock.stderr"))
	if err != nil {
		s.t.Fatalf("e2e: %v", err)
	}
	s.mockErr = f
	args := append([]string{filepath.Join(s.MockDir, "mock_anthropic.py"),
		"--log", s.MockLog, "--port-file", portFile}, s.opts.MockArgs...)
	cmd := exec.Command("python3", args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("e2e: starting the mock: %v", err)
	}
	s.mockCmd, s.pidMock = cmd, cmd.Process.Pid
	s.mockDone = make(chan struct{})
	go func() { cmd.Wait(); close(s.mockDone) }()
	deadline := time.Now().Add(mockPortTimeout)
	for {
		if b, err := os.ReadFile(portFile); err == nil {
			if p, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && p > 0 {
				s.Port = p
				return
			}
		}
		select {
		case <-s.mockDone:
			s.Fatalf("the mock exited before writing its port file")
		default:
		}
		if time.Now().After(deadline) {
			s.Fatalf("the mock wrote no port file within %s", mockPortTimeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *Session) subst(v string) string {
	return strings.NewReplacer(
		"{{OUT}}", s.Out, "{{WORK}}", s.Work, "{{HOME}}", s.Home, "{{PROJ}}", s.Proj,
		"{{MOCK}}", s.MockDir, "{{CAPTURE}}", "python3 "+ShellQuote(filepath.Join(s.MockDir, "capture.py")),
	).Replace(v)
}

func (s *Session) substAny(v any) any {
	switch x := v.(type) {
	case string:
		return s.subst(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = s.substAny(e)
		}
		return out
	case []string:
		out := make([]string, len(x))
		for i, e := range x {
			out[i] = s.subst(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = s.substAny(e)
		}
		return out
	default:
		return v
	}
}

func writeJSON(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// writeConfig writes settings.json, the pre-seeded ~/.claude.json (as
// cc_e2e.py does: onboarding done, the project trusted, key "dummy" approved)
// and launch.sh, which runs claude under `env -i` with a fixed environment.
func (s *Session) writeConfig() {
	s.t.Helper()
	settings := s.opts.Settings
	if settings == nil {
		settings = map[string]any{}
	}
	if err := writeJSON(filepath.Join(s.Home, ".claude", "settings.json"), s.substAny(settings)); err != nil {
		s.Fatalf("writing settings.json: %v", err)
	}
	cj := map[string]any{
		"hasCompletedOnboarding": true, "theme": "dark", "numStartups": 1,
		"customApiKeyResponses": map[string]any{"approved": []string{"dummy"}, "rejected": []string{}},
		"projects": map[string]any{s.Proj: map[string]any{
			"hasTrustDialogAccepted": true, "allowedTools": []string{},
			"hasCompletedProjectOnboarding": true}},
	}
	for k, v := range s.opts.ClaudeJSON {
		cj[k] = s.substAny(v)
	}
	if err := writeJSON(filepath.Join(s.Home, ".claude.json"), cj); err != nil {
		s.Fatalf("writing .claude.json: %v", err)
	}
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/bin:/bin"
	}
	user := os.Getenv("USER")
	if user == "" {
		user = "root"
	}
	env := [][2]string{
		{"HOME", s.Home}, {"PATH", path}, {"TERM", "xterm-256color"}, {"LANG", "C.UTF-8"},
		{"SHELL", "/bin/bash"}, {"USER", user}, {"TMPDIR", s.Tmp},
		{"ANTHROPIC_BASE_URL", fmt.Sprintf("http://127.0.0.1:%d", s.Port)},
		{"ANTHROPIC_API_KEY", "dummy"},
		{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"},
		{"DISABLE_TELEMETRY", "1"}, {"DISABLE_AUTOUPDATER", "1"}, {"DISABLE_ERROR_REPORTING", "1"},
	}
	if s.opts.Model != "" {
		env = append(env, [2]string{"ANTHROPIC_MODEL", s.opts.Model})
	}
	for _, k := range slices.Sorted(maps.Keys(s.opts.Env)) {
		v := s.subst(s.opts.Env[k])
		if i := slices.IndexFunc(env, func(kv [2]string) bool { return kv[0] == k }); i >= 0 {
			env[i][1] = v
		} else {
			env = append(env, [2]string{k, v})
		}
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\nexec env -i")
	for _, kv := range env {
		b.WriteString(" " + ShellQuote(kv[0]+"="+kv[1]))
	}
	b.WriteString(" " + ShellQuote(s.ClaudeBin))
	for _, a := range s.opts.ClaudeArgs {
		b.WriteString(" " + ShellQuote(a))
	}
	b.WriteString("\n")
	if err := os.WriteFile(filepath.Join(s.Work, "launch.sh"), []byte(b.String()), 0o755); err != nil {
		s.Fatalf("writing launch.sh: %v", err)
	}
}

func (s *Session) launch() {
	s.t.Helper()
	if _, err := s.tmux("-f", "/dev/null", "new-session", "-d",
		"-x", strconv.Itoa(s.opts.Cols), "-y", strconv.Itoa(s.opts.Rows),
		"-s", "cc", "-c", s.Proj, filepath.Join(s.Work, "launch.sh")); err != nil {
		s.Fatalf("tmux new-session: %v", err)
	}
	s.tmux("set-option", "-t", "cc", "remain-on-exit", "on")
	if out, err := s.tmux("display", "-p", "-t", "cc", "#{pid}"); err == nil {
		s.pidTmux, _ = strconv.Atoi(strings.TrimSpace(out))
	}
	if out, err := s.tmux("display", "-p", "-t", "cc", "#{pane_pid}"); err == nil {
		s.pidClaude, _ = strconv.Atoi(strings.TrimSpace(out))
	}
	if s.pidTmux == 0 || s.pidClaude == 0 {
		s.Fatalf("could not read the tmux server / pane PIDs (claude may have exited at once)")
	}
	writeJSON(filepath.Join(s.Out, "session.json"), map[string]any{
		"port": s.Port, "pids": map[string]int{"mock": s.pidMock, "tmux": s.pidTmux, "claude": s.pidClaude},
		"claude_bin": s.ClaudeBin, "home": s.Home, "proj": s.Proj, "sock": s.Sock,
	})
}

// tmux runs `tmux -S <own socket> args…` with a timeout, outside any
// enclosing tmux session.
func (s *Session) tmux(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), tmuxCmdTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", append([]string{"-S", s.Sock}, args...)...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "TMUX=") || strings.HasPrefix(kv, "TMUX_PANE=")
	})
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		return out.String(), fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// ---------------------------------------------------------------- teardown

// Close tears the session down as cc_e2e.py does: Ctrl-C twice so SessionEnd
// runs and claude exits, copy the transcripts out, kill the claude PID and its
// descendants, `tmux kill-server` on the own socket, kill the mock by PID,
// then SIGKILL anything left of the recorded processes. It never kills by
// name. It is idempotent and registered with t.Cleanup by Start.
func (s *Session) Close() {
	s.closeOnce.Do(s.close)
}

func (s *Session) close() {
	if s.pidClaude != 0 && alive(s.pidClaude) {
		s.Capture("before-exit")
		s.tmux("send-keys", "-t", "cc", "C-c")
		time.Sleep(300 * time.Millisecond)
		s.tmux("send-keys", "-t", "cc", "C-c")
		for end := time.Now().Add(exitWait); time.Now().Before(end) && alive(s.pidClaude); {
			time.Sleep(100 * time.Millisecond)
		}
		s.Capture("after-exit")
	}
	s.collect()
	var victims []int
	for _, p := range []int{s.pidClaude, s.pidTmux} {
		if p != 0 {
			victims = append(victims, descendants(p)...)
			victims = append(victims, p)
		}
	}
	if s.pidClaude != 0 {
		killPIDs(append(descendants(s.pidClaude), s.pidClaude), syscall.SIGTERM)
	}
	if s.Sock != "" {
		if _, err := os.Stat(s.Sock); err == nil {
			s.tmux("kill-server")
		}
	}
	if s.pidMock != 0 {
		killPIDs([]int{s.pidMock}, syscall.SIGTERM)
		select {
		case <-s.mockDone:
		case <-time.After(3 * time.Second):
			killPIDs([]int{s.pidMock}, syscall.SIGKILL)
			select {
			case <-s.mockDone:
			case <-time.After(2 * time.Second):
			}
		}
	}
	time.Sleep(300 * time.Millisecond)
	var left []int
	for _, p := range victims {
		if alive(p) {
			left = append(left, p)
		}
	}
	killPIDs(left, syscall.SIGKILL)
	if s.mockErr != nil {
		s.mockErr.Close()
	}
	s.pidClaude, s.pidTmux, s.pidMock = 0, 0, 0
	if os.Getenv("ZONELINE_E2E_OUT") != "" {
		s.t.Logf("e2e: output kept in %s", s.Out)
	}
}

// collect copies the transcripts out of the throwaway HOME.
func (s *Session) collect() {
	src := filepath.Join(s.Home, ".claude", "projects")
	if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
		return
	}
	if err := os.CopyFS(filepath.Join(s.Out, "transcripts"), os.DirFS(src)); err != nil {
		s.t.Logf("e2e: copying the transcripts out: %v", err)
	}
}

// ---------------------------------------------------------------- screen

// Screen returns the pane as text (capture-pane -p), with the SGR colour
// codes kept when ansi is true (capture-pane -p -e). It returns "" if tmux
// cannot be asked.
func (s *Session) Screen(ansi bool) string {
	args := []string{"capture-pane", "-p", "-t", "cc"}
	if ansi {
		args = append(args, "-e")
	}
	out, _ := s.tmux(args...)
	return out
}

// Capture saves the pane to screens/NN-<name>.txt and .ansi and returns the
// path without the extension.
func (s *Session) Capture(name string) string {
	s.screenN++
	base := filepath.Join(s.Out, "screens", fmt.Sprintf("%02d-%s", s.screenN, slug(name, 40)))
	os.WriteFile(base+".txt", []byte(s.Screen(false)), 0o644)
	os.WriteFile(base+".ansi", []byte(s.Screen(true)), 0o644)
	return base
}

// Poll calls cond with the screen (ANSI when ansi is true) every 200 ms
// until it returns true or timeout passes; it returns the last screen and
// whether cond held. It never fails the test.
func (s *Session) Poll(timeout time.Duration, ansi bool, cond func(screen string) bool) (string, bool) {
	end := time.Now().Add(timeout)
	for {
		sc := s.Screen(ansi)
		if cond(sc) {
			return sc, true
		}
		if time.Now().After(end) {
			return sc, false
		}
		time.Sleep(pollInterval)
	}
}

// WaitScreen waits until the plain screen matches re and returns it. It
// fails the test after timeout (0 means the session's Timeout).
func (s *Session) WaitScreen(re *regexp.Regexp, timeout time.Duration) string {
	s.t.Helper()
	return s.waitScreen(re, timeout, false)
}

// WaitScreenANSI is WaitScreen on the screen with its SGR codes kept.
func (s *Session) WaitScreenANSI(re *regexp.Regexp, timeout time.Duration) string {
	s.t.Helper()
	return s.waitScreen(re, timeout, true)
}

func (s *Session) waitScreen(re *regexp.Regexp, timeout time.Duration, ansi bool) string {
	s.t.Helper()
	if timeout == 0 {
		timeout = s.opts.Timeout
	}
	sc, ok := s.Poll(timeout, ansi, re.MatchString)
	if !ok {
		s.Capture("timeout-" + re.String())
		s.Fatalf("the screen never matched %q within %s", re, timeout)
	}
	return sc
}

// WaitIdle waits until the screen has not changed for 1.5 s and shows no
// busy marker ("esc to interrupt", "Compacting conversation"), and returns
// it. After timeout (0 means the session's Timeout) it logs and returns the
// last screen: callers assert on what they expected to see.
func (s *Session) WaitIdle(timeout time.Duration) string {
	s.t.Helper()
	if timeout == 0 {
		timeout = s.opts.Timeout
	}
	end := time.Now().Add(timeout)
	last, since := "", time.Now()
	first := true
	for time.Now().Before(end) {
		sc := s.Screen(false)
		if first || sc != last {
			last, since, first = sc, time.Now(), false
		} else if !busyRE.MatchString(sc) && time.Since(since) >= idleStable {
			return sc
		}
		time.Sleep(pollInterval)
	}
	s.logf("the screen was not idle after %s", timeout)
	return last
}

// ---------------------------------------------------------------- input

// Type types text literally; with enter it then presses Enter.
func (s *Session) Type(text string, enter bool) {
	s.t.Helper()
	if _, err := s.tmux("send-keys", "-t", "cc", "-l", text); err != nil {
		s.Fatalf("typing %q: %v", text, err)
	}
	if enter {
		time.Sleep(400 * time.Millisecond)
		s.Keys("Enter")
	}
}

// Keys sends tmux key names, e.g. Keys("Escape") or Keys("C-c").
func (s *Session) Keys(keys ...string) {
	s.t.Helper()
	if _, err := s.tmux(append([]string{"send-keys", "-t", "cc"}, keys...)...); err != nil {
		s.Fatalf("sending keys %v: %v", keys, err)
	}
}

// Prompt types text and Enter, waits for a new main-turn request to reach the
// mock and for the screen to go idle, captures the screen and returns it
// (plain). It fails the test if no main-turn request arrives in time.
func (s *Session) Prompt(text string) string {
	s.t.Helper()
	return s.send("prompt-"+text, text, s.opts.Timeout, 500*time.Millisecond, KindMain, KindToolResult)
}

// Command types a slash command such as "/compact" and Enter, waits for the
// summarisation request and for the screen to go idle, captures and returns
// the screen. Use CommandExpect for commands that send something else.
func (s *Session) Command(text string) string {
	s.t.Helper()
	return s.send("cmd-"+text, text, CompactTimeout, time.Second, KindCompact)
}

// CommandExpect is Command waiting for a request of one of kinds instead;
// with no kinds it expects no request at all (e.g. a blocked /compact).
func (s *Session) CommandExpect(text string, kinds ...string) string {
	s.t.Helper()
	return s.send("cmd-"+text, text, CompactTimeout, time.Second, kinds...)
}

func (s *Session) send(name, text string, timeout, settle time.Duration, kinds ...string) string {
	s.t.Helper()
	n := len(s.Requests(kinds...))
	t0 := time.Now()
	s.Type(text, true)
	if len(kinds) > 0 {
		ok := false
		for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(pollInterval) {
			if len(s.Requests(kinds...)) > n {
				ok = true
				break
			}
		}
		if !ok {
			s.Capture("timeout-" + name)
			s.Fatalf("after typing %q no %v request reached the mock within %s", text, kinds, timeout)
		}
	}
	time.Sleep(settle)
	sc := s.WaitIdle(timeout)
	s.Capture(name)
	s.logf("%s done in %.1fs", name, time.Since(t0).Seconds())
	return sc
}

// ---------------------------------------------------------------- mock

// Usage is the usage block the mock answers with (Anthropic field names).
// Zero fields are left out, so the mock fills them (output_tokens: 120).
type Usage struct {
	InputTokens              int `json:"input_tokens,omitempty"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens,omitempty"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens,omitempty"`
	OutputTokens             int `json:"output_tokens,omitempty"`
}

// Context returns a usage whose context (input + cache creation + cache
// read) is total tokens, split as the mock does by default: 500 fresh, 1500
// cache creation, the rest cache read; 120 output tokens.
func Context(total int) Usage {
	fresh := min(500, total)
	creation := min(1500, total-fresh)
	return Usage{InputTokens: fresh, CacheCreationInputTokens: creation,
		CacheReadInputTokens: total - fresh - creation, OutputTokens: 120}
}

// Total is the context the usage reports: input + cache creation + cache read.
func (u Usage) Total() int {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// Request is one line of the mock's request log.
type Request struct {
	T         float64           `json:"t"`
	Method    string            `json:"method"`
	Path      string            `json:"path"`
	Query     string            `json:"query"`
	Headers   map[string]string `json:"headers"`
	Kind      string            `json:"kind"` // KindMain, KindToolResult, KindCompact, KindSide; "" for non-messages calls
	Stream    bool              `json:"stream"`
	UsageSent *Usage            `json:"usage_sent"`
	Body      json.RawMessage   `json:"body"`
}

// Requests reads the mock's log and returns the requests of the given kinds
// (all requests when none are given), oldest first.
func (s *Session) Requests(kinds ...string) []Request {
	b, err := os.ReadFile(s.MockLog)
	if err != nil {
		return nil
	}
	var out []Request
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Request
		if json.Unmarshal(line, &r) != nil {
			continue // a line being written
		}
		if len(kinds) == 0 || slices.Contains(kinds, r.Kind) {
			out = append(out, r)
		}
	}
	return out
}

// MockUsage queues exact usage blocks for the next main turns, in order
// (POST /_mock/usage). After the queue is used up the mock goes back to its
// base + step accounting.
func (s *Session) MockUsage(us ...Usage) {
	s.t.Helper()
	s.mockPost("/_mock/usage", map[string]any{"queue": us})
}

// MockConfig changes mock settings while it runs (POST /_mock/config), e.g.
// {"base": 20000, "step": 40000, "post_compact_base": 12000, "delay": 1}.
func (s *Session) MockConfig(cfg map[string]any) {
	s.t.Helper()
	s.mockPost("/_mock/config", cfg)
}

func (s *Session) mockPost(path string, v any) {
	s.t.Helper()
	body, _ := json.Marshal(v)
	resp, err := s.http.Post(fmt.Sprintf("http://127.0.0.1:%d%s", s.Port, path), "application/json", bytes.NewReader(body))
	if err != nil {
		s.Fatalf("POST %s to the mock: %v", path, err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		s.Fatalf("POST %s to the mock: %s", path, resp.Status)
	}
}

// ---------------------------------------------------------------- failure

// Fatalf fails the test with the message, the last screen and the tail of
// the mock log.
func (s *Session) Fatalf(format string, args ...any) {
	s.t.Helper()
	s.t.Fatalf("e2e: %s\n%s", fmt.Sprintf(format, args...), s.Diagnostics())
}

// Diagnostics returns the last screen, a summary of the last mock requests
// and the tail of the mock's stderr, for failure messages.
func (s *Session) Diagnostics() string {
	var b strings.Builder
	b.WriteString("---- last screen ----\n")
	b.WriteString(strings.TrimRight(s.Screen(false), "\n"))
	b.WriteString("\n---- mock log tail (" + s.MockLog + ") ----\n")
	reqs := s.Requests()
	if len(reqs) > 12 {
		reqs = reqs[len(reqs)-12:]
	}
	for _, r := range reqs {
		fmt.Fprintf(&b, "%.3f %s %s", r.T, r.Method, r.Path)
		if r.Kind != "" {
			fmt.Fprintf(&b, " kind=%s", r.Kind)
		}
		if r.UsageSent != nil {
			fmt.Fprintf(&b, " context=%d", r.UsageSent.Total())
		}
		if r.Kind == "" && len(r.Body) > 0 {
			body := string(r.Body)
			if len(body) > 200 {
				body = body[:200] + "…"
			}
			b.WriteString(" body=" + body)
		}
		b.WriteByte('\n')
	}
	if len(reqs) == 0 {
		b.WriteString("(no requests)\n")
	}
	if e, err := os.ReadFile(filepath.Join(s.Out, "mock.stderr")); err == nil {
		lines := strings.Split(strings.TrimRight(string(e), "\n"), "\n")
		if len(lines) > 10 {
			lines = lines[len(lines)-10:]
		}
		b.WriteString("---- mock stderr tail ----\n" + strings.Join(lines, "\n") + "\n")
	}
	if os.Getenv("ZONELINE_E2E_OUT") == "" {
		b.WriteString("(set ZONELINE_E2E_OUT=/some/dir to keep the screens and logs)\n")
	} else {
		b.WriteString("(screens and logs kept in " + s.Out + ")\n")
	}
	return b.String()
}

// ---------------------------------------------------------------- helpers

var safeShell = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]+$`)

// ShellQuote quotes s for a POSIX shell (unchanged when it is plainly safe).
func ShellQuote(s string) string {
	if safeShell.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

var nonSlug = regexp.MustCompile(`[^A-Za-z0-9]+`)

func slug(s string, max int) string {
	out := strings.ToLower(strings.Trim(nonSlug.ReplaceAllString(s, "-"), "-"))
	if len(out) > max {
		out = strings.TrimRight(out[:max], "-")
	}
	if out == "" {
		return "x"
	}
	return out
}

// Resize sets the pane to cols columns (rows unchanged) with tmux resize-window, as a user
// dragging the terminal would; Claude Code redraws and passes the new COLUMNS to the status
// line command at its next run.
func (s *Session) Resize(cols int) {
	s.t.Helper()
	if _, err := s.tmux("resize-window", "-t", "cc", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(s.opts.Rows)); err != nil {
		s.Fatalf("resizing the pane to %d columns: %v", cols, err)
	}
	s.opts.Cols = cols
}

// Cols is the pane's width as tmux reports it.
func (s *Session) Cols() int {
	out, err := s.tmux("display", "-p", "-t", "cc", "#{pane_width}")
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(out))
	return n
}
