//go:build linux

package hardening

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// wrapDeadline is the wrapped command's deadline in these worlds (wrap_timeout).
const wrapDeadline = time.Second

// inProject lists the processes whose working directory is dir: the wrapped command runs in
// the render's (the project), and whatever it starts inherits it, through env -i, setsid and
// double forks alike.
func inProject(t *testing.T, dir string) []string {
	t.Helper()
	ents, _ := os.ReadDir("/proc")
	var found []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		if cwd, err := os.Readlink("/proc/" + e.Name() + "/cwd"); err == nil && cwd == dir {
			cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			found = append(found, e.Name()+" "+string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})))
		}
	}
	return found
}

// waitGone waits up to d for no process to run in dir, and returns those left.
func waitGone(t *testing.T, dir string, d time.Duration) []string {
	t.Helper()
	end := time.Now().Add(d)
	for {
		left := inProject(t, dir)
		if len(left) == 0 || time.Now().After(end) {
			return left
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// wrapWorld is a world whose config wraps the script body (w.sh, given $ZL: the binary, $W: the
// script, $STATE, $CONFIG, $LOG: a file each run of the script appends a line to).
func wrapWorld(t *testing.T, bin, body string) (*world, string) {
	t.Helper()
	w := newWorld(t)
	script := filepath.Join(w.root, "w.sh")
	log := filepath.Join(w.root, "runs.log")
	vars := "ZL=" + shq(bin) + "\nW=" + shq(script) + "\nSTATE=" + shq(w.state) + "\nCONFIG=" + shq(w.config) + "\nLOG=" + shq(log) + "\n"
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"+vars+"echo run >>\"$LOG\"\n"+body+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, w.config, []byte("[statusline]\nlines = [[\"zone\"]]\nwrap = "+strconv.Quote(script)+"\nwrap_timeout = \""+wrapDeadline.String()+"\"\n"))
	return w, log
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestWrapChainEnds: a wrapped command that runs zoneline again with the marker stripped from
// its environment (env -u, env -i, with or without the paths put back, an explicit -wrap, a
// double fork that leaves the group) never leads to a second level of wrapping: the zoneline
// under the refresher shows its line without wrapping, the script runs once per refresh, and
// once the refresher's deadline has passed no process of the chain is left.
func TestWrapChainEnds(t *testing.T) {
	bin := zoneline(t)
	for _, tt := range []struct{ name, body, nested string }{
		{"env -u", `exec env -u ZONELINE_WRAPPED "$ZL" statusline`, "wrap inside a wrap"},
		{"env -i, paths back", `exec env -i ZONELINE_STATE_DIR="$STATE" ZONELINE_CONFIG="$CONFIG" CLAUDECODE=1 "$ZL" statusline`, "wrap inside a wrap"},
		// (Its ⚠ segment starts with HOME's problem, and the marker is cut at this width.)
		{"env -i, explicit -wrap", `exec env -i "$ZL" statusline -wrap "$W"`, "⚠ HOME is unset"},
		{"setsid double fork", `(setsid sh -c 'sleep 30' </dev/null >/dev/null 2>&1 &); (setsid env -u ZONELINE_WRAPPED "$ZL" statusline -wrap "$W" </dev/null >/dev/null 2>&1 &); exec env -u ZONELINE_WRAPPED "$ZL" statusline`, "wrap inside a wrap"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w, log := wrapWorld(t, bin, tt.body)
			payload := statuslinePayload(w, sessionID, 100_000)
			start := time.Now()
			r := w.run(t, bin, payload, []string{"statusline"})
			checkCommon(t, "render", r)
			// The refresher runs the script once, with its deadline; then nothing is left.
			kept := filepath.Join(w.state, "sessions", sessionID, "wrapped-last.txt")
			for end := start.Add(wrapDeadline + 3*time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
				if _, err := os.Stat(kept); err == nil {
					break
				}
			}
			if left := waitGone(t, w.project, time.Until(start.Add(wrapDeadline+3*time.Second))); len(left) > 0 {
				t.Errorf("%d processes of the chain left after the refresher's deadline:\n%s", len(left), strings.Join(left, "\n"))
				for _, p := range left {
					pid, _ := strconv.Atoi(strings.Fields(p)[0])
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			if runs := strings.Count(mustRead(log)+"\n", "run\n"); runs != 1 {
				t.Errorf("the wrapped script ran %d times, want once (a nested zoneline wrapped again)", runs)
			}
			line := string(w.run(t, bin, payload, []string{"statusline"}).stdout)
			if strings.Count(line, "│") != 1 || !strings.Contains(line, tt.nested) {
				t.Errorf("the next render: %q, want zoneline's part and the nested line with %q", line, tt.nested)
			}
			waitGone(t, w.project, 2*time.Second)
		})
	}
}

// TestWrapCancelKillsGroup: SIGTERM, SIGINT or SIGHUP to a wrapping zoneline (the refresher, or
// a hand render that waits for its command) mid-run ends the wrapped command's process group
// and whatever it started out of the group.
func TestWrapCancelKillsGroup(t *testing.T) {
	bin := zoneline(t)
	body := `echo $$ >"$LOG.pgid"; sleep 30 & (setsid sleep 30 &); sleep 30`
	for _, tt := range []struct {
		name string
		sig  syscall.Signal
		hand bool // a hand render (no Claude Code): the render itself is the wrapping process
	}{
		{"refresher SIGTERM", syscall.SIGTERM, false},
		{"refresher SIGINT", syscall.SIGINT, false},
		{"refresher SIGHUP", syscall.SIGHUP, false},
		{"hand render SIGTERM", syscall.SIGTERM, true},
		{"hand render SIGINT", syscall.SIGINT, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w, log := wrapWorld(t, bin, body)
			write(t, w.config, []byte("[statusline]\nwrap = "+strconv.Quote(filepath.Join(w.root, "w.sh"))+"\nwrap_timeout = \"20s\"\n"))
			payload := statuslinePayload(w, sessionID, 100_000)
			var hand *exec.Cmd
			if tt.hand {
				hand = exec.Command(bin, "statusline")
				hand.Env = append(append([]string{}, w.env...), "CLAUDECODE=")
				hand.Dir, hand.Stdin = w.project, bytes.NewReader(payload)
				if err := hand.Start(); err != nil {
					t.Fatal(err)
				}
				defer hand.Wait()
			} else {
				checkCommon(t, "render", w.run(t, bin, payload, []string{"statusline"}))
			}
			var pgid int
			for end := time.Now().Add(5 * time.Second); pgid == 0 && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
				b, _ := os.ReadFile(log + ".pgid")
				pgid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			if pgid == 0 {
				t.Fatal("the wrapped command never started")
			}
			time.Sleep(100 * time.Millisecond) // its children started
			stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pgid) + "/stat")
			_, rest, _ := strings.Cut(string(stat), ") ")
			f := strings.Fields(rest)
			if len(f) < 2 {
				t.Fatalf("no parent for the wrapped command %d: %q", pgid, stat)
			}
			wrapper, _ := strconv.Atoi(f[1])
			if tt.hand && wrapper != hand.Process.Pid {
				t.Fatalf("the wrapped command's parent is %d, not the render %d", wrapper, hand.Process.Pid)
			}
			if err := syscall.Kill(wrapper, tt.sig); err != nil {
				t.Fatal(err)
			}
			if left := waitGone(t, w.project, 2*time.Second); len(left) > 0 {
				t.Errorf("%s to the wrapping zoneline left %d processes:\n%s", tt.sig, len(left), strings.Join(left, "\n"))
				for _, p := range left {
					pid, _ := strconv.Atoi(strings.Fields(p)[0])
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			err := syscall.Kill(-pgid, 0)
			for end := time.Now().Add(2 * time.Second); err != syscall.ESRCH && time.Now().Before(end); err = syscall.Kill(-pgid, 0) {
				time.Sleep(20 * time.Millisecond) // (its last members reaped by init once the wrapper is gone)
			}
			if err != syscall.ESRCH {
				t.Errorf("the wrapped command's group %d is still there (%v)", pgid, err)
			}
		})
	}
}
