//go:build linux && (amd64 || arm64)

package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/procbench"
)

// A render offers no file to the runtime's network poller: files go through internal/rawfs's
// direct system calls, not os.File, whose every open sets the descriptor non-blocking, tries to
// register it with the poller (epoll_ctl, refused for a regular file, then set back) and gives
// it a cleanup. (The poller itself runs: internal/deadline's timer starts it, as every Go timer
// does, and registers its own eventfd: one epoll_ctl.) Measured head to head against the same
// tree with os.File opens: a render 5 %, a hook 1-2 % slower (ARCHITECTURE.md, "The hot path").
// TestNoFileOfferedToPoller holds the rule to a real process: it runs the built binary under
// ptrace and counts its epoll_ctl calls.

// controlEnv makes the test binary a control process that starts the poller with a timer, as
// zoneline does, and opens a regular file with os.
const controlEnv = "ZONELINE_TEST_POLLER_CONTROL"

func TestMain(m *testing.M) {
	if os.Getenv(controlEnv) == "1" {
		time.Sleep(time.Millisecond)     // a timer: the poller starts, its eventfd registered
		os.ReadFile("/proc/self/status") // an os.File: offered to the poller too
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestNoFileOfferedToPoller(t *testing.T) {
	if testing.Short() {
		t.Skip("builds zoneline")
	}
	// The count sees a file offered to the poller: the control process makes two calls.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if n, _, code := epollCtls(t, self, nil, nil, append(os.Environ(), controlEnv+"=1")); code != 0 || n < 2 {
		t.Fatalf("control: exit %d, %d epoll_ctl calls: the count cannot see an os.File", code, n)
	}

	bin := procbench.Build(t, "./cmd/zoneline")
	dir := t.TempDir()
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir,
		"ZONELINE_CONFIG=" + filepath.Join(dir, "config.toml"),
		"ZONELINE_STATE_DIR=" + filepath.Join(dir, "state"),
		"CLAUDE_CONFIG_DIR=" + filepath.Join(dir, "claude"),
		"COLUMNS=200", "TERM=xterm-256color",
		"CLAUDECODE=1", // as Claude Code runs it: a hand render keeps no state
	}
	os.WriteFile(filepath.Join(dir, "config.toml"), []byte("glyphs = \"unicode\"\n"), 0o600)
	fixture := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "claude-code", "edge-cases-sonnet-200k", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ctx20k, ctx180k := fixture("statusline-edge-03-ctx-20k.json"), fixture("statusline-edge-06-ctx-180k.json")
	fresh := []byte(strings.ReplaceAll(string(fixture("statusline-edge-01-no-usage-yet.json")), "aaa8e696-", "bbb8e696-"))
	// Not checked: the first render parses config.toml (config's own reader, on a cache miss)
	// and fills the config cache.
	if _, out, code := epollCtls(t, bin, []string{"statusline"}, ctx20k, env); code != 0 || !strings.Contains(out, "SMART") {
		t.Fatalf("first render: exit %d, %q", code, out)
	}
	prompt := fixture("hook-edge-UserPromptSubmit-01.json")
	for _, run := range []struct {
		name  string
		args  []string
		stdin []byte
		want  string // in stdout
	}{
		{"a render in a running session", []string{"statusline"}, ctx20k, "SMART"},
		{"a render that crosses every tier: markers, the nudge, log lines, the registry rewritten", []string{"statusline"}, ctx180k, "DUMB"},
		{"a render with nothing new", []string{"statusline"}, ctx180k, "DUMB"},
		{"a new session's first render, before its first reply: its folder created", []string{"statusline"}, fresh, "--"},
		{"hook UserPromptSubmit: the nudge delivered", []string{"hook"}, prompt, "compact-prep"},
		{"hook UserPromptSubmit: nothing pending", []string{"hook"}, prompt, ""},
	} {
		n, out, code := epollCtls(t, bin, run.args, run.stdin, env)
		if code != 0 || !strings.Contains(out, run.want) {
			t.Errorf("%s: exit %d, stdout %q", run.name, code, out)
		}
		if n > 1 {
			t.Errorf("%s: %d epoll_ctl calls, want at most the poller's own: a file went through os.File, not rawfs", run.name, n)
		}
	}
}

// epollCtls runs bin with args, stdin and env under ptrace, and returns how many epoll_ctl
// calls its threads made, its stdout and its exit code.
func epollCtls(t *testing.T, bin string, args []string, stdin []byte, env []string) (calls int, stdout string, code int) {
	t.Helper()
	// ptrace requests must come from the thread that started the tracee.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// Raw blocking pipes: an os.Pipe end is non-blocking, and a child inheriting a non-blocking
	// stdin would register it with its poller.
	var in, out [2]int
	if err := syscall.Pipe2(in[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Pipe2(out[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(out[0])
	if len(stdin) > 0 {
		if _, err := syscall.Write(in[1], stdin); err != nil { // a payload fits the pipe's buffer
			t.Fatal(err)
		}
	}
	syscall.Close(in[1])
	devnull, err := syscall.Open(os.DevNull, syscall.O_WRONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := syscall.ForkExec(bin, append([]string{bin}, args...), &syscall.ProcAttr{
		Env:   env,
		Files: []uintptr{uintptr(in[0]), uintptr(out[1]), uintptr(devnull)},
		Sys:   &syscall.SysProcAttr{Ptrace: true},
	})
	syscall.Close(in[0])
	syscall.Close(out[1])
	syscall.Close(devnull)
	if err != nil {
		t.Fatal(err)
	}
	watchdog := time.AfterFunc(30*time.Second, func() { syscall.Kill(pid, syscall.SIGKILL) })
	defer watchdog.Stop()

	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil || !ws.Stopped() {
		t.Fatalf("the tracee did not stop at exec: %v %v", err, ws)
	}
	const exitKill = 0x100000 // PTRACE_O_EXITKILL: the tracee dies with a failed test
	if err := syscall.PtraceSetOptions(pid, syscall.PTRACE_O_TRACECLONE|syscall.PTRACE_O_TRACESYSGOOD|exitKill); err != nil {
		t.Fatal(err)
	}
	syscall.PtraceSyscall(pid, 0)
	inSyscall := map[int]bool{} // per thread: between a syscall's entry and its exit
	for {
		wpid, err := syscall.Wait4(-1, &ws, syscall.WALL, nil)
		if err != nil { // ECHILD: every thread is gone
			break
		}
		switch {
		case ws.Exited() || ws.Signaled():
			if wpid == pid {
				code = ws.ExitStatus()
				if ws.Signaled() {
					code = 128 + int(ws.Signal())
				}
			}
			delete(inSyscall, wpid)
		case ws.Stopped() && ws.StopSignal() == syscall.SIGTRAP|0x80: // a syscall stop
			entry := !inSyscall[wpid]
			inSyscall[wpid] = entry
			var regs syscall.PtraceRegs
			if entry && syscall.PtraceGetRegs(wpid, &regs) == nil && syscallNo(&regs) == sysEpollCtl {
				calls++
			}
			syscall.PtraceSyscall(wpid, 0)
		case ws.Stopped() && (ws.StopSignal() == syscall.SIGTRAP || ws.StopSignal() == syscall.SIGSTOP):
			syscall.PtraceSyscall(wpid, 0) // a clone event, a new thread's first stop
		case ws.Stopped():
			syscall.PtraceSyscall(wpid, int(ws.StopSignal())) // the runtime's own signals, delivered
		}
	}
	var buf []byte
	chunk := make([]byte, 4096)
	for {
		n, err := syscall.Read(out[0], chunk)
		if n <= 0 || err != nil {
			break
		}
		buf = append(buf, chunk[:n]...)
	}
	return calls, string(buf), code
}
