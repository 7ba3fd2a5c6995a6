//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A render keeps the runtime's network poller from starting: files go through internal/rawfs's
// direct system calls, not os.File, whose first open of a regular file creates an epoll
// instance and an eventfd (ARCHITECTURE.md, "The hot path"; measured: 2.5-4 % of a render).
// TestNoPollerAtExit holds that rule to a real process: it runs the built binary
// under ptrace, stops it at its exit (PTRACE_EVENT_EXIT, before the kernel closes its files)
// and reads its descriptors from /proc.

// controlEnv makes the test binary a control process that opens a regular file with os.
const controlEnv = "ZONELINE_TEST_POLLER_CONTROL"

func TestMain(m *testing.M) {
	if os.Getenv(controlEnv) == "1" {
		os.ReadFile("/proc/self/status") // an os.File: the poller starts
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestNoPollerAtExit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds zoneline")
	}
	// The check sees a poller where there is one: the control process has one at exit.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fds, _, code := fdsAtExit(t, self, nil, nil, append(os.Environ(), controlEnv+"=1"))
	if code != 0 || !slices.ContainsFunc(fds, isPollerFD) {
		t.Fatalf("control: exit %d, descriptors %v: the check cannot see a poller", code, fds)
	}

	bin := filepath.Join(t.TempDir(), "zoneline")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir,
		"ZONELINE_CONFIG=" + filepath.Join(dir, "config.toml"),
		"ZONELINE_STATE_DIR=" + filepath.Join(dir, "state"),
		"CLAUDE_CONFIG_DIR=" + filepath.Join(dir, "claude"),
		"COLUMNS=200", "TERM=xterm-256color", "RUNEWIDTH_EASTASIAN=0",
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
	if _, out, code := fdsAtExit(t, bin, []string{"statusline"}, ctx20k, env); code != 0 || !strings.Contains(out, "SMART") {
		t.Fatalf("first render: exit %d, %q", code, out)
	}
	for _, run := range []struct {
		name  string
		stdin []byte
		want  string // in stdout
	}{
		{"a render in a running session", ctx20k, "SMART"},
		{"a render that crosses every tier: markers, the nudge, log lines, the registry rewritten", ctx180k, "DUMB"},
		{"a render with nothing new", ctx180k, "DUMB"},
		{"a new session's first render, before its first reply: its folder created", fresh, "--"},
	} {
		fds, out, code := fdsAtExit(t, bin, []string{"statusline"}, run.stdin, env)
		if code != 0 || !strings.Contains(out, run.want) {
			t.Errorf("%s: exit %d, stdout %q", run.name, code, out)
		}
		if len(fds) == 0 {
			t.Errorf("%s: no descriptors read at exit", run.name)
		}
		if slices.ContainsFunc(fds, isPollerFD) {
			t.Errorf("%s: the network poller started (descriptors at exit: %v): a file went through os.File, not rawfs", run.name, fds)
		}
	}
	// (zoneline hook is not checked: its deadline timer starts the poller anyway, as every Go
	// timer does, so rawfs saves a hook only the per-file cost of os.File.)
}

// isPollerFD reports whether a descriptor's link is the poller's epoll instance or its eventfd.
func isPollerFD(link string) bool {
	return link == "anon_inode:[eventpoll]" || link == "anon_inode:[eventfd]"
}

// fdsAtExit runs bin with args, stdin and env under ptrace, and returns the targets of its open
// descriptors when its first thread reaches exit, its stdout and its exit code.
func fdsAtExit(t *testing.T, bin string, args []string, stdin []byte, env []string) (fds []string, stdout string, code int) {
	t.Helper()
	// ptrace requests must come from the thread that started the tracee.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// Raw blocking pipes: an os.Pipe end would be non-blocking, and a child inheriting a
	// non-blocking stdin starts the poller for it.
	var in, out [2]int
	if err := syscall.Pipe2(in[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Pipe2(out[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(out[0])
	if _, err := syscall.Write(in[1], stdin); err != nil { // a payload fits the pipe's buffer
		t.Fatal(err)
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
	if err := syscall.PtraceSetOptions(pid, syscall.PTRACE_O_TRACECLONE|syscall.PTRACE_O_TRACEEXIT|exitKill); err != nil {
		t.Fatal(err)
	}
	syscall.PtraceCont(pid, 0)
	read := false
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
		case ws.Stopped() && ws.StopSignal() == syscall.SIGTRAP && ws.TrapCause() == syscall.PTRACE_EVENT_EXIT:
			if !read {
				fds = openFDs(pid, wpid)
				read = true
			}
			syscall.PtraceCont(wpid, 0)
		case ws.Stopped() && (ws.StopSignal() == syscall.SIGTRAP || ws.StopSignal() == syscall.SIGSTOP):
			syscall.PtraceCont(wpid, 0) // a clone event, a new thread's first stop
		case ws.Stopped():
			syscall.PtraceCont(wpid, int(ws.StopSignal())) // the runtime's own signals, delivered
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
	return fds, string(buf), code
}

// openFDs lists the targets of thread tid's descriptors (in process pid).
func openFDs(pid, tid int) []string {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(tid) + "/fd"
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		if link, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil {
			out = append(out, link)
		}
	}
	return out
}
