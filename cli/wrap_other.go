//go:build !unix

package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// startWrapped starts the user's status line command as Claude Code does on Windows: through
// Git Bash (bash -c CMD; see gitBash), else cmd /C; in dir ("": the current one), with
// zoneline's environment and the payload on stdin. The result comes on the returned channel;
// the returned kill ends the command (not what it started: on Windows only ZONELINE_WRAPPED
// marks a wrap, and the command's own process is what is killed).
func startWrapped(command, dir string, stdin []byte, limit int, deadline time.Duration) (<-chan wrapResult, func()) {
	done := make(chan wrapResult, 1)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	go func() {
		defer cancel()
		var cmd *exec.Cmd
		if bash := gitBash(); bash != "" {
			cmd = exec.CommandContext(ctx, bash, "-c", command)
		} else {
			cmd = exec.CommandContext(ctx, "cmd", "/C", command)
		}
		cmd.Env, cmd.Dir = wrappedEnviron(os.Environ()), dir
		cmd.Stdin = bytes.NewReader(stdin)
		lw := &limitWriter{limit: limit}
		cmd.Stdout = lw
		err := cmd.Run()
		res := wrapResult{out: lw.b, cut: lw.cut}
		var ee *exec.ExitError
		switch {
		case ctx.Err() != nil:
			res.err = errKilled
		case errors.As(err, &ee) && !lw.cut:
			res.err = exitError(ee.ExitCode())
		case err != nil && !lw.cut:
			res.err = err
		}
		done <- res
	}()
	return done, cancel
}

func markWrapping()     {}
func insideWrap() bool  { return false }
func sweepDescendants() {}

// gitBash finds Git Bash as Claude Code does: CLAUDE_CODE_GIT_BASH_PATH, else the bash.exe of
// the git on PATH (never a bare "bash" from PATH, which on Windows can be WSL's launcher).
func gitBash() string {
	if p := os.Getenv("CLAUDE_CODE_GIT_BASH_PATH"); p != "" {
		return p
	}
	if git, err := exec.LookPath("git"); err == nil {
		root := filepath.Dir(filepath.Dir(git)) // <Git>\cmd\git.exe or <Git>\bin\git.exe
		if p := filepath.Join(root, "bin", "bash.exe"); fileExists(p) {
			return p
		}
	}
	return ""
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

type limitWriter struct {
	b     []byte
	limit int
	cut   bool
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if room := w.limit - len(w.b); len(p) > room {
		w.b = append(w.b, p[:max(room, 0)]...)
		w.cut = true
		return 0, errors.New("output limit")
	}
	w.b = append(w.b, p...)
	return len(p), nil
}
