//go:build unix

package compactflow

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/state"
)

// fakeClaude is a small stand-in for Claude Code in a tmux pane: it reads one line per
// prompt, logs it, and does what the real session and zoneline's hooks would: /compact-prep
// writes the checkpoint ($CKPT_SRC copied to $CKPT), /compact records a compaction in
// compactions.json, and each turn ends with a status line render (session.json updated).
const fakeClaude = `#!/bin/sh
render() {
  printf '{"session_id":"%s","updated":"%s","tmux_pane":"%s","tmux_socket":"%s","compactions":%s}\n' \
    "$SID" "$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)" "$TMUX_PANE" "$SOCK" "$1" > "$SDIR/session.json.tmp"
  mv "$SDIR/session.json.tmp" "$SDIR/session.json"
}
n=0
echo "fake claude ready"
while :; do
  printf '❯ '
  IFS= read -r line || exit 0
  printf '%s\n' "$line" >> "$LOG"
  case "$line" in
    /compact-prep) echo "writing the checkpoint"; cp "$CKPT_SRC" "$CKPT"; sleep 0.3; echo "checkpoint written"; render $n ;;
    "/compact "*) echo "Compacting…"; n=$((n+1)); printf '{"count":%s}\n' $n > "$SDIR/compactions.json"; render $n ;;
    /postcompact) echo "Restored from the checkpoint. Next: run go test"; render $n ;;
    *) echo "mock reply"; render $n ;;
  esac
done
`

// realTmux starts a tmux server on its own socket running the fake claude, and returns the
// target and the log of lines the fake received.
func realTmux(t *testing.T, d state.Dir, ckSrc string) (Target, string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "tmux.sock")
	script := filepath.Join(dir, "claude.sh")
	logf := filepath.Join(dir, "received.log")
	if err := os.WriteFile(script, []byte(fakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	sdir, _ := d.Session(testSession)
	if err := state.MkdirPrivate(sdir); err != nil {
		t.Fatal(err)
	}
	ck, _ := checkpoint.Path(d, testSession)
	tm := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("tmux", append([]string{"-S", sock}, args...)...)
		cmd.Env = append(os.Environ(), "TMUX=", "TMUX_PANE=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	tm("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "30", "-s", "t",
		"env", "SID="+testSession, "SDIR="+sdir, "SOCK="+sock, "LOG="+logf, "CKPT="+ck, "CKPT_SRC="+ckSrc, "sh", script)
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	pane := tm("display", "-p", "-t", "t", "#{pane_id}")
	tg := Target{Socket: sock, Pane: pane}
	// Wait for the fake's first prompt.
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if sc, _ := (Exec{}).Capture(tg); strings.Contains(sc, "❯") {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the fake claude did not start")
		}
	}
	return tg, logf
}

func received(t *testing.T, logf string) []string {
	b, err := os.ReadFile(logf)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.Fields(strings.ReplaceAll(strings.TrimSpace(string(b)), " ", "_"))
}

func realFlow(d state.Dir, tg Target) *Flow {
	return &Flow{State: d, Tmux: Exec{}, Session: testSession, Target: tg, Compact: "/compact keep ids",
		PrepWait: 8 * time.Second, CompactWait: 8 * time.Second, PostWait: 8 * time.Second,
		Poll: 100 * time.Millisecond, Settle: time.Second}
}

// TestRealTmux drives a real tmux server: the three commands arrive in the pane in order,
// typed literally and submitted with Enter.
func TestRealTmux(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	src := filepath.Join(t.TempDir(), "good.md")
	os.WriteFile(src, []byte(validCheckpoint(testSession)), 0o600)
	tg, logf := realTmux(t, d, src)
	if err := realFlow(d, tg).Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	got := strings.Join(received(t, logf), " ")
	if want := "/compact-prep /compact_keep_ids /postcompact"; got != want {
		t.Fatalf("the pane received %q, want %q", got, want)
	}
}

// TestRealTmuxInvalidCheckpoint: the fake writes a checkpoint that fails verify, so /compact is
// never typed, and the error quotes the pane.
func TestRealTmuxInvalidCheckpoint(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	src := filepath.Join(t.TempDir(), "bad.md")
	os.WriteFile(src, []byte("# zoneline checkpoint\nsession: "+testSession+"\n\n## Goal\nTODO\n"), 0o600)
	tg, logf := realTmux(t, d, src)
	err := realFlow(d, tg).Run(context.Background())
	var se *StepError
	if !errors.As(err, &se) || se.Step != StepCheckpoint {
		t.Fatalf("Run = %v, want a failure at %q", err, StepCheckpoint)
	}
	if !strings.Contains(err.Error(), "fails checkpoint verify") || !strings.Contains(se.Screen, "checkpoint written") {
		t.Errorf("error does not say why or what the pane shows: %v", err)
	}
	time.Sleep(time.Second)
	if got := received(t, logf); len(got) != 1 || got[0] != "/compact-prep" {
		t.Fatalf("the pane received %q, want only /compact-prep", got)
	}
}
