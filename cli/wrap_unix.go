//go:build unix

package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// startWrapped starts the user's own status line command as Claude Code starts it: `/bin/sh
// -c CMD` (Node's spawn with shell: true), in dir (the session's cwd; "": the current one),
// with zoneline's environment and ZONELINE_WRAPPED=1, in its own process group (detached;
// on Linux killed when this process dies), stdin fed with the payload's bytes. It returns the
// result's channel and the kill of its group. It forks through the syscall package (os/exec first forks a throwaway child to probe
// pidfd support, and its pipes start the runtime's network poller). The result comes on the
// returned channel; a deadline, output past limit, or a failure ends the process group. It
// is one function, longer than most, because the fork, the pipes and the reaping must close
// and kill in one order that splitting would hide.
func startWrapped(command, dir string, stdin []byte, limit int, deadline time.Duration) (<-chan wrapResult, func()) {
	done := make(chan wrapResult, 1)
	fail := func(err error) (<-chan wrapResult, func()) {
		done <- wrapResult{err: err}
		return done, func() {}
	}
	var in, out [2]int
	syscall.ForkLock.RLock()
	err := syscall.Pipe(in[:])
	if err == nil {
		if err = syscall.Pipe(out[:]); err != nil {
			syscall.Close(in[0])
			syscall.Close(in[1])
		}
	}
	if err == nil {
		for _, fd := range [...]int{in[0], in[1], out[0], out[1]} {
			syscall.CloseOnExec(fd)
		}
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return fail(err)
	}
	null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		for _, fd := range [...]int{in[0], in[1], out[0], out[1]} {
			syscall.Close(fd)
		}
		return fail(err)
	}
	path, argv := "/bin/sh", []string{"sh", "-c", command}
	if words, ok := simpleCommand(command); ok && (filepath.IsAbs(words[0]) || !strings.Contains(words[0], "/")) {
		// What sh -c would do for a plain "prog arg…", without the shell's own exec.
		if p, err := exec.LookPath(words[0]); err == nil {
			path, argv = p, words
		}
	}
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
		Dir:   dir,
		Env:   wrappedEnviron(syscall.Environ()),
		Files: []uintptr{uintptr(in[0]), uintptr(out[1]), uintptr(null)},
		Sys:   wrapSysProcAttr(),
	})
	syscall.Close(in[0])
	syscall.Close(out[1])
	syscall.Close(null)
	if err != nil {
		syscall.Close(in[1])
		syscall.Close(out[0])
		return fail(err)
	}
	g := &group{pid: pid}
	kill := g.kill
	go func() {
		// A command that does not read its stdin gets EPIPE here, not a signal (not fd 1 or 2).
		for b := stdin; len(b) > 0; {
			n, err := syscall.Write(in[1], b)
			if err != nil && err != syscall.EINTR {
				break
			}
			if n > 0 {
				b = b[n:]
			}
		}
		syscall.Close(in[1])
	}()
	go func() {
		var res wrapResult
		buf := make([]byte, 0, 4096)
		for {
			if len(buf) == cap(buf) {
				buf = append(buf, 0)[:len(buf)]
			}
			n, err := syscall.Read(out[0], buf[len(buf):min(cap(buf), limit+1)])
			if err == syscall.EINTR {
				continue
			}
			if n <= 0 {
				break
			}
			buf = buf[:len(buf)+n]
			if len(buf) > limit {
				res.cut = true
				buf = buf[:limit]
				kill()
				break
			}
		}
		syscall.Close(out[0])
		res.out = buf
		var ws syscall.WaitStatus
		for {
			_, err := syscall.Wait4(pid, &ws, 0, nil)
			if err != syscall.EINTR {
				break
			}
		}
		g.reaped()
		switch {
		case res.cut:
		case ws.Signaled() && ws.Signal() == syscall.SIGKILL:
			res.err = errKilled
		case ws.Signaled():
			res.err = errors.New("killed by " + ws.Signal().String())
		case ws.ExitStatus() != 0:
			res.err = exitError(ws.ExitStatus())
		}
		done <- res
	}()
	time.AfterFunc(deadline, kill) // (a no-op once the command is reaped)
	return done, kill
}

// group is a wrapped command's process group. kill ends the whole group (the command and
// whatever it started that stayed in its group), only while the group is known alive: once the
// command is reaped (reaped) its pid, and so the group id, may be reused by an unrelated
// process.
type group struct {
	mu   sync.Mutex
	pid  int
	gone bool
}

func (g *group) kill() {
	g.mu.Lock()
	if !g.gone {
		syscall.Kill(-g.pid, syscall.SIGKILL)
	}
	g.mu.Unlock()
}

func (g *group) reaped() {
	g.mu.Lock()
	g.gone = true
	g.mu.Unlock()
}

// simpleCommand splits command into words when the shell would run it as a plain program with
// arguments: only letters, digits, blanks and /._-+=:@%, (no quote, variable, glob, redirection,
// separator or assignment), so exec'ing the words directly is what sh -c does.
func simpleCommand(command string) ([]string, bool) {
	for i := 0; i < len(command); i++ {
		c := command[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || strings.IndexByte("/._-+:@%,", c) >= 0) {
			return nil, false
		}
	}
	words := strings.Fields(command)
	return words, len(words) > 0
}
