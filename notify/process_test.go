//go:build unix

package notify_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/procbench"
	"github.com/zoneline/zoneline/notify"
	"github.com/zoneline/zoneline/notify/notifytest"
	"github.com/zoneline/zoneline/state"
)

// The real binaries, built once by TestMain into one folder (the companion beside zoneline,
// as install.sh puts them).
var bins struct {
	zoneline, notifier string
	err                error
}

func TestMain(m *testing.M) {
	bins.zoneline, bins.err = procbench.Built("./cmd/zoneline")
	if bins.err == nil {
		bins.notifier, bins.err = procbench.Built("./cmd/" + notify.Companion)
	}
	code := m.Run()
	procbench.Cleanup()
	os.Exit(code)
}

func needBins(t *testing.T) {
	t.Helper()
	if bins.err != nil {
		t.Fatal(bins.err)
	}
}

const sessionID = "5b1e0c8e-3f0e-4c55-9a57-0f4f4cb7e0a1"

// world is one test's private config, state, Claude folder and project.
type world struct {
	dir, state, proj string
	env              []string
}

func newWorld(t *testing.T, extraEnv ...string) *world {
	t.Helper()
	dir := t.TempDir()
	w := &world{dir: dir, state: filepath.Join(dir, "state"), proj: filepath.Join(dir, "shop")}
	os.MkdirAll(w.proj, 0o755)
	os.MkdirAll(filepath.Join(dir, "run"), 0o700)
	w.env = append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir,
		"ZONELINE_CONFIG=" + filepath.Join(dir, "config.toml"),
		"ZONELINE_STATE_DIR=" + w.state,
		"CLAUDE_CONFIG_DIR=" + filepath.Join(dir, "claude"),
		"XDG_RUNTIME_DIR=" + filepath.Join(dir, "run"), // holds no bus
		"COLUMNS=200",
		"CLAUDECODE=1", // run as Claude Code runs it: a hand render keeps no state
	}, extraEnv...)
	return w
}

// payload is a statusline payload of a 200k Sonnet session holding tokens.
func (w *world) payload(tokens int) []byte {
	fresh, creation := min(500, tokens), min(1500, max(tokens-500, 0))
	return []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"model":{"id":"claude-sonnet-4-5-20250929","display_name":"Sonnet 4.5"},`+
		`"workspace":{"current_dir":%q,"project_dir":%q},"version":"2.1.332",`+
		`"context_window":{"context_window_size":200000,"current_usage":{"input_tokens":%d,"output_tokens":120,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d}}}`,
		sessionID, w.proj, w.proj, w.proj, fresh, creation, tokens-fresh-creation))
}

// statusline runs one `zoneline statusline` and returns its stdout.
func (w *world) statusline(t *testing.T, tokens int) string {
	t.Helper()
	cmd := exec.Command(bins.zoneline, "statusline")
	cmd.Env = w.env
	cmd.Stdin = bytes.NewReader(w.payload(tokens))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("zoneline statusline: %v", err)
	}
	if len(bytes.TrimSpace(out)) == 0 {
		t.Fatal("zoneline statusline printed a blank line")
	}
	return string(out)
}

func (w *world) log() string {
	b, _ := os.ReadFile(filepath.Join(w.state, "zoneline.log"))
	return string(b)
}

// waitLog waits for the state log to contain s.
func (w *world) waitLog(t *testing.T, s string, timeout time.Duration) {
	t.Helper()
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(w.log(), s) {
			return
		}
	}
	t.Fatalf("the log has no %q after %s:\n%s", s, timeout, w.log())
}

func (w *world) markers(t *testing.T) []string {
	t.Helper()
	sdir, _ := state.Dir{Root: w.state}.Session(sessionID)
	ents, err := os.ReadDir(sdir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "marker-") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// TestNotificationReachesServer: a render that crosses the prep threshold makes exactly one
// Notify reach a notification server on a private session bus, with the expected summary.
func TestNotificationReachesServer(t *testing.T) {
	needBins(t)
	bus := notifytest.StartBus(t)
	rcv := bus.Receiver(t, notifytest.Answer)
	w := newWorld(t, bus.Env())

	line := w.statusline(t, 60_000) // smart: nothing
	if strings.Contains(line, "/compact-prep") {
		t.Errorf("smart line shows the hint: %q", line)
	}
	line = w.statusline(t, 125_000) // crosses warn and prep at once: one notification
	if !strings.Contains(line, "/compact-prep") {
		t.Errorf("line at the prep threshold has no /compact-prep hint: %q", line)
	}
	recs := rcv.Wait(t, 1, 10*time.Second)
	w.statusline(t, 126_000) // no new crossing
	w.waitLog(t, "spawned true", 5*time.Second)
	r := recs[0]
	if r.Summary != "zoneline: DUMB zone · shop" || r.AppName != "zoneline" ||
		r.Body != "125k tokens on Sonnet 4.5, ~42k before auto-compact. Next: /compact-prep, then /compact." ||
		r.Hints["urgency"] != byte(1) {
		t.Errorf("Notify: %+v", r)
	}
	if n := strings.Count(w.log(), "spawned true"); n != 1 {
		t.Errorf("%d spawns logged, want 1:\n%s", n, w.log())
	}
	if got := w.markers(t); strings.Join(got, " ") != "marker-0-dumb.json marker-0-warn.json" {
		t.Errorf("markers %v", got)
	}
	// The companion ran and exited: wait for the answer to be counted, then no second call.
	if len(rcv.Records()) != 1 {
		t.Errorf("%d Notify calls, want 1", len(rcv.Records()))
	}
}

// TestStatuslineRace: 50 statusline processes released at once on one session that crosses
// the threshold create exactly one marker per tier and spawn exactly one notifier, which
// delivers exactly one notification.
func TestStatuslineRace(t *testing.T) {
	needBins(t)
	bus := notifytest.StartBus(t)
	rcv := bus.Receiver(t, notifytest.Answer)
	w := newWorld(t, bus.Env())
	w.statusline(t, 60_000) // the session exists, as in a running session

	const n = 50
	// Each process waits at a gate (a shell's read of one line from its pipe, which has no
	// deadline) and then execs zoneline on a file that holds the payload: released together,
	// and none of them can wait on stdin past its deadline however long the 50 starts take
	// (a payload written to 50 pipes after the starts arrived too late on a loaded machine).
	in := writeTemp(t, w.dir, "render.json", w.payload(150_000)) // warn, prep and imminent at once
	cmds := make([]*exec.Cmd, n)
	gates := make([]io.WriteCloser, n)
	outs := make([]bytes.Buffer, n)
	for i := range cmds {
		cmds[i] = exec.Command("/bin/sh", "-c", `read _ && exec "$0" statusline < "$1"`, bins.zoneline, in)
		cmds[i].Env = w.env
		cmds[i].Stdout = &outs[i]
		var err error
		if gates[i], err = cmds[i].StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gates[i].Write([]byte("go\n"))
			gates[i].Close()
		}()
	}
	wg.Wait()
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("process %d: %v", i, err)
		}
		if !strings.Contains(outs[i].String(), "150k") {
			t.Errorf("process %d printed %q", i, outs[i].String())
		}
	}
	if got := w.markers(t); strings.Join(got, " ") != "marker-0-dumb.json marker-0-imminent.json marker-0-warn.json" {
		t.Errorf("markers %v, want one per tier", got)
	}
	// Every process has exited, so the log holds every spawn.
	if s := strings.Count(w.log(), "spawned true"); s != 1 {
		t.Errorf("%d notifier spawns, want 1:\n%s", s, w.log())
	}
	recs := rcv.Wait(t, 1, 10*time.Second)
	if recs[0].Summary != "zoneline: auto-compact imminent · shop" {
		t.Errorf("summary %q", recs[0].Summary)
	}
	// The one companion answers its call, then exits; no other companion was started.
	for end := time.Now().Add(10 * time.Second); rcv.Answered() < 1 && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
	}
	if got := len(rcv.Records()); got != 1 {
		t.Errorf("%d Notify calls, want exactly 1", got)
	}
}

// TestStuckServer: with a notification server that never answers, the statusline returns
// before the server answers — the notifier is detached — and the notifier gives up by its own
// deadline.
func TestStuckServer(t *testing.T) {
	needBins(t)
	bus := notifytest.StartBus(t)
	rcv := bus.Receiver(t, notifytest.Hang)
	w := newWorld(t, bus.Env())
	w.statusline(t, 125_000) // returns: Output waits for exit
	returned := time.Now()
	recs := rcv.Wait(t, 1, 10*time.Second)
	if rcv.Answered() != 0 {
		t.Fatal("the stuck server answered")
	}
	t.Logf("statusline returned %v before the Notify call arrived", recs[0].Received.Sub(returned))
	// The statusline has exited while the notifier still waits on the server: the notifier
	// gives up by its deadline and says so in the log.
	w.waitLog(t, "notify: gave up after", notify.CompanionDeadline+5*time.Second)
	if rcv.Answered() != 0 || len(rcv.Records()) != 1 {
		t.Errorf("answered %d, calls %d; want 0 and 1", rcv.Answered(), len(rcv.Records()))
	}
}

// TestNoBus: with no session bus, no notification is attempted and no dbus-daemon appears.
func TestNoBus(t *testing.T) {
	needBins(t)
	if notifytest.Daemon() == "" {
		t.Log("dbus-daemon is not installed: checking only that nothing is spawned")
	}
	before := notifytest.DaemonPIDs()
	w := newWorld(t)
	w.statusline(t, 125_000)
	// The companion itself, run directly, refuses too.
	cmd := exec.Command(bins.notifier, "-state", w.state, "--", "t", "b")
	cmd.Env = w.env
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 4 {
		t.Errorf("zoneline-notify without a bus: %v, want exit 4", err)
	}
	log := w.log()
	if !strings.Contains(log, "no D-Bus session bus") || strings.Contains(log, "spawned true") {
		t.Errorf("log:\n%s", log)
	}
	if got := w.markers(t); len(got) != 2 {
		t.Errorf("markers %v: the marker is written with or without a bus", got)
	}
	time.Sleep(200 * time.Millisecond) // let any daemon a stray dbus-launch forked show up
	for pid := range notifytest.DaemonPIDs() {
		if !before[pid] {
			t.Errorf("a new dbus-daemon appeared: pid %d", pid)
		}
	}
}

// TestStatuslineAndStopRace: 50 statusline renders and 50 Stop hooks released at once on one
// session that crosses every tier (the two warning routes, racing) create exactly one marker
// per tier and send exactly one notification.
func TestStatuslineAndStopRace(t *testing.T) {
	needBins(t)
	bus := notifytest.StartBus(t)
	rcv := bus.Receiver(t, notifytest.Answer)
	w := newWorld(t, bus.Env())
	tr := filepath.Join(w.dir, "transcript.jsonl")
	line := func(tokens int) string {
		return fmt.Sprintf(`{"type":"assistant","isSidechain":false,"message":{"id":"msg_%d","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":500,"cache_creation_input_tokens":1500,"cache_read_input_tokens":%d,"output_tokens":120}}}`+"\n", tokens, tokens-2000)
	}
	os.WriteFile(tr, []byte(line(60_000)), 0o600)
	w.statusline(t, 60_000) // the session exists, as in a running session
	os.WriteFile(tr, []byte(line(60_000)+line(150_000)), 0o600)

	const n = 50
	stop := []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":%q,"hook_event_name":"Stop","stop_hook_active":false}`, sessionID, tr, w.proj))
	render := w.payload(150_000) // warn, prep and imminent at once
	// Each process's stdin is a file holding its payload, there at its start: a process's
	// deadline runs from its start, so a payload written by the test after starting 100
	// processes would arrive as late as the machine is busy (a pipe written after all the
	// starts timed out on a loaded machine). The race is between the processes themselves.
	renderIn, stopIn := writeTemp(t, w.dir, "render.json", render), writeTemp(t, w.dir, "stop.json", stop)
	type proc struct {
		cmd *exec.Cmd
		out bytes.Buffer
	}
	var ps []*proc
	for i := range 2 * n {
		p := &proc{cmd: exec.Command(bins.zoneline, "statusline")}
		in := renderIn
		if i%2 == 1 {
			p.cmd, in = exec.Command(bins.zoneline, "hook"), stopIn
		}
		f, err := os.Open(in)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		p.cmd.Env, p.cmd.Stdout, p.cmd.Stdin = w.env, &p.out, f
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	for i, p := range ps {
		if err := p.cmd.Wait(); err != nil {
			t.Errorf("process %d: %v", i, err)
		}
		if i%2 == 1 && p.out.Len() != 0 {
			t.Errorf("Stop hook %d printed %q", i, p.out.String())
		}
		if i%2 == 0 && !strings.Contains(p.out.String(), "150k") {
			t.Errorf("render %d printed %q", i, p.out.String())
		}
	}
	if got := w.markers(t); strings.Join(got, " ") != "marker-0-dumb.json marker-0-imminent.json marker-0-warn.json" {
		t.Errorf("markers %v, want one per tier", got)
	}
	if s := strings.Count(w.log(), "spawned true"); s != 1 {
		t.Errorf("%d notifier spawns, want 1:\n%s", s, w.log())
	}
	recs := rcv.Wait(t, 1, 10*time.Second)
	if recs[0].Summary != "zoneline: auto-compact imminent · shop" {
		t.Errorf("summary %q", recs[0].Summary)
	}
	for end := time.Now().Add(10 * time.Second); rcv.Answered() < 1 && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
	}
	if got := len(rcv.Records()); got != 1 {
		t.Errorf("%d Notify calls, want exactly 1", got)
	}
	if l := w.log(); strings.Contains(l, "warning: zoneline") || strings.Contains(l, "panic") {
		t.Errorf("log:\n%s", l)
	}
}

// writeTemp writes data to dir/name and returns the path.
func writeTemp(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
