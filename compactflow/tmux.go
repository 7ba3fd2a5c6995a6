package compactflow

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Target is one pane on one tmux server.
type Target struct {
	Socket string // the server's socket path (from $TMUX); "" = tmux's default server
	Pane   string // the pane id, e.g. "%3" (from $TMUX_PANE)
}

// String names the target for people.
func (t Target) String() string {
	if t.Socket == "" {
		return "pane " + t.Pane
	}
	return "pane " + t.Pane + " on " + t.Socket
}

// Tmux is what the flow needs from tmux. Exec is the real one; tests use a fake that records
// every send.
type Tmux interface {
	// Send types text into the pane literally, then presses Enter.
	Send(t Target, text string) error
	// Capture returns the pane's visible text.
	Capture(t Target) (string, error)
}

// Timing of the real tmux calls.
const (
	tmuxTimeout = 10 * time.Second
	// enterDelay separates the typed text from the Enter key: Claude Code reads a fast burst
	// as a paste, in which an Enter is a newline, not a submit.
	enterDelay = 400 * time.Millisecond
)

// Exec runs the tmux binary with an explicit argv (never a shell):
// `tmux -S <socket> send-keys -t <pane> -l <text>`, then `… send-keys -t <pane> Enter`.
type Exec struct {
	Bin string // "" = "tmux" on $PATH
}

// Args returns the argv (without the program) of one tmux command against t.
func Args(t Target, cmd ...string) []string {
	var a []string
	if t.Socket != "" {
		a = append(a, "-S", t.Socket)
	}
	return append(a, cmd...)
}

func (x Exec) run(t Target, cmd ...string) (string, error) {
	bin := cmp.Or(x.Bin, "tmux")
	ctx, cancel := context.WithTimeout(context.Background(), tmuxTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, bin, Args(t, cmd...)...)
	// Outside any enclosing tmux: -S names the server.
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			env = append(env, kv)
		}
	}
	c.Env = env
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		return out.String(), fmt.Errorf("tmux %s: %v: %s", strings.Join(cmd[:1], " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// Send implements Tmux.
func (x Exec) Send(t Target, text string) error {
	if _, err := x.run(t, "send-keys", "-t", t.Pane, "-l", text); err != nil {
		return err
	}
	time.Sleep(enterDelay)
	_, err := x.run(t, "send-keys", "-t", t.Pane, "Enter")
	return err
}

// Capture implements Tmux.
func (x Exec) Capture(t Target) (string, error) {
	return x.run(t, "capture-pane", "-p", "-t", t.Pane)
}
