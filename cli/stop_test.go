//go:build unix

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zoneline/zoneline/pipeline"

	"github.com/zoneline/zoneline/notify"
)

const stopSession = "0f6d1c2a-7e41-4a8b-9c3d-5e6f7a8b9c0d"

// assistantLine is one transcript record of a main-chain reply at tokens of context.
func assistantLine(model string, tokens int64) string {
	return fmt.Sprintf(`{"type":"assistant","isSidechain":false,"message":{"id":"msg_%d","model":%q,"usage":{"input_tokens":500,"cache_creation_input_tokens":1500,"cache_read_input_tokens":%d,"output_tokens":120}}}`+"\n",
		tokens, model, tokens-2000)
}

func stopPayload(transcript string) []byte {
	return []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/home/u/shop","hook_event_name":"Stop","stop_hook_active":false}`, stopSession, transcript))
}

// runStop runs one `zoneline hook` for a Stop payload on e's state and returns stdout.
func runStop(t *testing.T, dir string, payload []byte, vars map[string]string) (string, string) {
	t.Helper()
	if vars == nil {
		vars = map[string]string{}
	}
	vars["ZONELINE_STATE_DIR"] = filepath.Join(dir, "state")
	vars["ZONELINE_CONFIG"] = filepath.Join(dir, "config.toml")
	vars["CLAUDE_CONFIG_DIR"] = filepath.Join(dir, "claude")
	e, out, _ := testEnv(t, payload, vars)
	if code := e.Run([]string{"hook"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "state", "zoneline.log"))
	return out.String(), string(log)
}

func markerNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(dir, "state", "sessions", stopSession))
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "marker-") || e.Name() == "nudge-pending.json" {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestStopTiers: the Stop hook alone (no status line ever ran) crosses the same tiers as a
// render, from the transcript's tail, with the config's rules for the window; it prints nothing.
func TestStopTiers(t *testing.T) {
	tests := []struct {
		name   string
		config string
		model  string
		steps  []int64 // context at each successive Stop
		want   string  // marker files after the last step
	}{
		{"smart", "", "claude-sonnet-4-5-20250929", []int64{20_000}, ""},
		{"warn", "", "claude-sonnet-4-5-20250929", []int64{20_000, 90_000}, "marker-0-warn.json"},
		{"prep", "", "claude-sonnet-4-5-20250929", []int64{20_000, 125_000}, "marker-0-dumb.json marker-0-warn.json nudge-pending.json"},
		{"imminent", "", "claude-sonnet-4-5-20250929", []int64{150_000}, "marker-0-dumb.json marker-0-imminent.json marker-0-warn.json nudge-pending.json"},
		// The transcript says nothing of the window: the model's known default (Opus 5.5: 1M),
		// else the config's window, else 200k.
		{"opus 5.5 known 1M", "", "claude-opus-5-5", []int64{125_000}, "marker-0-warn.json"},
		{"opus 4.1 assumed 200k", "", "claude-opus-4-1-20250805", []int64{125_000}, "marker-0-dumb.json marker-0-warn.json nudge-pending.json"},
		{"opus 4.1 config 1m", "window = 1_000_000\n", "claude-opus-4-1-20250805", []int64{125_000}, "marker-0-warn.json"},
		// A compaction (tokens falling below the lowest tier) re-arms: a new epoch.
		{"re-armed", "", "claude-sonnet-4-5-20250929", []int64{90_000, 10_000, 85_000}, "marker-0-warn.json marker-1-warn.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.config != "" {
				os.WriteFile(filepath.Join(dir, "config.toml"), []byte(tt.config), 0o600)
			}
			tr := filepath.Join(dir, "t.jsonl")
			for _, tok := range tt.steps {
				f, _ := os.OpenFile(tr, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
				f.WriteString(assistantLine(tt.model, tok))
				f.Close()
				out, log := runStop(t, dir, stopPayload(tr), nil)
				if out != "" {
					t.Fatalf("Stop printed %q", out)
				}
				if strings.Contains(log, "gave up") || strings.Contains(log, "panic") {
					t.Fatalf("log: %s", log)
				}
			}
			if got := strings.Join(markerNames(t, dir), " "); got != tt.want {
				t.Errorf("markers %q, want %q", got, tt.want)
			}
		})
	}
}

// TestStopUsesStatuslineWindow: what the status line last saw (a 1M window for this model)
// is what the Stop hook assumes, and it does not overwrite it.
func TestStopUsesStatuslineWindow(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{
		"ZONELINE_STATE_DIR": filepath.Join(dir, "state"), "ZONELINE_CONFIG": filepath.Join(dir, "config.toml"),
		"CLAUDE_CONFIG_DIR": filepath.Join(dir, "claude"),
	}
	tr := filepath.Join(dir, "t.jsonl")
	os.WriteFile(tr, []byte(assistantLine("claude-opus-5-5", 20_000)), 0o600)
	sl := fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/home/u/shop","model":{"id":"claude-opus-5-5","display_name":"Opus 5.5"},`+
		`"context_window":{"context_window_size":1000000,"current_usage":{"input_tokens":500,"output_tokens":120,"cache_creation_input_tokens":1500,"cache_read_input_tokens":18000}}}`, stopSession, tr)
	e, _, _ := testEnv(t, []byte(sl), vars)
	if code := e.Run([]string{"statusline"}); code != 0 {
		t.Fatal(code)
	}
	os.WriteFile(tr, []byte(assistantLine("claude-opus-5-5", 125_000)), 0o600)
	runStop(t, dir, stopPayload(tr), nil)
	if got := strings.Join(markerNames(t, dir), " "); got != "marker-0-warn.json" {
		t.Errorf("markers %q: the 1M window the status line saw puts 125k in warn, not dumb", got)
	}
	s, err := e.State.LoadSession(stopSession)
	if err != nil || s.Window != 1_000_000 || s.Model != "Opus 5.5" || s.Tokens != 125_000 {
		t.Errorf("registry after Stop: %+v %v", s, err)
	}
	_, ms, _ := notify.Markers(e.State, stopSession)
	if len(ms) != 1 || ms[0].Window != 1_000_000 || ms[0].Model != "Opus 5.5" {
		t.Errorf("marker: %+v", ms)
	}
}

// TestStopGuessedWindow: the Stop hook's window for a model the status line never saw is a
// guess (200k here); the status line's first real window (1M) is no model switch, so the
// tiers already crossed do not fire again in a new epoch.
func TestStopGuessedWindow(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{
		"ZONELINE_STATE_DIR": filepath.Join(dir, "state"), "ZONELINE_CONFIG": filepath.Join(dir, "config.toml"),
		"CLAUDE_CONFIG_DIR": filepath.Join(dir, "claude"),
	}
	tr := filepath.Join(dir, "t.jsonl")
	os.WriteFile(tr, []byte(assistantLine("claude-opus-4-1-20250805", 125_000)), 0o600)
	runStop(t, dir, stopPayload(tr), nil)
	const want = "marker-0-dumb.json marker-0-warn.json nudge-pending.json"
	if got := strings.Join(markerNames(t, dir), " "); got != want {
		t.Fatalf("after Stop: markers %q, want %q", got, want)
	}
	sl := fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/home/u/shop","model":{"id":"claude-opus-4-1-20250805","display_name":"Opus 4.1"},`+
		`"context_window":{"context_window_size":1000000,"current_usage":{"input_tokens":500,"output_tokens":120,"cache_creation_input_tokens":1500,"cache_read_input_tokens":123000}}}`, stopSession, tr)
	e, _, _ := testEnv(t, []byte(sl), vars)
	if code := e.Run([]string{"statusline"}); code != 0 {
		t.Fatal(code)
	}
	if got := strings.Join(markerNames(t, dir), " "); got != want {
		ents, _ := os.ReadDir(filepath.Join(dir, "state", "sessions", stopSession))
		for _, e := range ents {
			b, _ := os.ReadFile(filepath.Join(dir, "state", "sessions", stopSession, e.Name()))
			t.Logf("%s: %.200s", e.Name(), b)
		}
		t.Errorf("after the render: markers %q, want %q (the guessed window started a new epoch)", got, want)
	}
	s, err := e.State.LoadSession(stopSession)
	if err != nil || s.Window != 1_000_000 || s.WindowGuessed {
		t.Errorf("registry after the render: %+v %v", s, err)
	}
}

// TestStopBadTranscript: a Stop payload without a transcript, or with a FIFO, a directory,
// a missing file or a half-written one: exit 0, nothing on stdout, a log line.
func TestStopBadTranscript(t *testing.T) {
	tests := []struct {
		name string
		mk   func(t *testing.T, dir string) string
		log  string
	}{
		{"none", func(*testing.T, string) string { return "" }, "no transcript_path"},
		{"missing", func(_ *testing.T, dir string) string { return filepath.Join(dir, "nope.jsonl") }, "does not exist"},
		{"directory", func(_ *testing.T, dir string) string { return dir }, "is a directory"},
		{"fifo", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skip(err)
			}
			return p
		}, "is a FIFO"},
		{"half-written", func(_ *testing.T, dir string) string {
			p := filepath.Join(dir, "t.jsonl")
			line := assistantLine("claude-sonnet-4-5-20250929", 125_000)
			os.WriteFile(p, []byte(assistantLine("claude-sonnet-4-5-20250929", 90_000)+line[:len(line)/2]), 0o600)
			return p
		}, "half-written"},
		{"empty", func(_ *testing.T, dir string) string {
			p := filepath.Join(dir, "t.jsonl")
			os.WriteFile(p, nil, 0o600)
			return p
		}, "no reply with a token count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out, log := runStop(t, dir, stopPayload(tt.mk(t, dir)), nil)
			if out != "" {
				t.Errorf("stdout %q", out)
			}
			if !strings.Contains(log, "Stop: ") || !strings.Contains(log, tt.log) {
				t.Errorf("log lacks %q:\n%s", tt.log, log)
			}
		})
	}
	// The half-written last line is skipped: the whole record before it (90k) counts.
	dir := t.TempDir()
	p := filepath.Join(dir, "t.jsonl")
	line := assistantLine("claude-sonnet-4-5-20250929", 125_000)
	os.WriteFile(p, []byte(assistantLine("claude-sonnet-4-5-20250929", 90_000)+line[:len(line)/2]), 0o600)
	runStop(t, dir, stopPayload(p), nil)
	if got := strings.Join(markerNames(t, dir), " "); got != "marker-0-warn.json" {
		t.Errorf("markers %q after a half-written 125k line, want the 90k warn only", got)
	}
}

// stopClock drives the Stop hook's wait for the reply by events: its Sleep moves its clock on
// and then runs onSleep (which may write to the transcript, as Claude Code does behind the
// hook), so what the test asserts does not depend on how busy the machine is.
type stopClock struct {
	now     time.Time
	slept   time.Duration
	polls   int
	onSleep func(poll int)
}

func (c *stopClock) Now() time.Time { return c.now }

func (c *stopClock) Sleep(d time.Duration) {
	c.now = c.now.Add(d)
	c.slept += d
	c.polls++
	if c.onSleep != nil {
		c.onSleep(c.polls)
	}
}

// runStopClock is runStop with the Stop hook's clock and sleep in the test's hands.
func runStopClock(t *testing.T, dir string, payload []byte, clock *stopClock) string {
	t.Helper()
	vars := map[string]string{
		"ZONELINE_STATE_DIR": filepath.Join(dir, "state"),
		"ZONELINE_CONFIG":    filepath.Join(dir, "config.toml"),
		"CLAUDE_CONFIG_DIR":  filepath.Join(dir, "claude"),
	}
	e, _, _ := testEnv(t, payload, vars)
	clock.now = time.Now()
	e.Now, e.Sleep = clock.Now, clock.Sleep
	if code := e.Run([]string{"hook"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "state", "zoneline.log"))
	return string(log)
}

// TestStopWaitsForReply: Claude Code writes the transcript behind its hooks. The Stop hook
// waits (bounded) for the reply named by last_assistant_message; a reply that never lands is
// logged and the last one there is used. The wait is driven by a test clock (stopClock):
// the transcript changes between polls, never at a time the machine's load decides.
func TestStopWaitsForReply(t *testing.T) {
	reply := func(text string, tokens int64) string {
		return fmt.Sprintf(`{"type":"assistant","isSidechain":false,"message":{"id":"msg_%d","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":%q}],"usage":{"input_tokens":500,"cache_creation_input_tokens":1500,"cache_read_input_tokens":%d,"output_tokens":120}}}`+"\n",
			tokens, text, tokens-2000)
	}
	payload := func(tr, text string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/home/u/shop","hook_event_name":"Stop","last_assistant_message":%q}`, stopSession, tr, text))
	}
	appendTo := func(path, text string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Error(err)
			return
		}
		f.WriteString(text)
		f.Close()
	}

	// The reply lands during the wait (Claude Code's landed 90–130 ms after Stop started): it
	// is found at the next poll, and the wait ends there.
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.jsonl")
	os.WriteFile(tr, []byte(reply("Mock reply #1. OK.", 20_000)), 0o600)
	clock := &stopClock{onSleep: func(poll int) {
		if poll == 4 {
			appendTo(tr, reply("Mock reply #2. OK.", 125_000))
		}
	}}
	log := runStopClock(t, dir, payload(tr, "Mock reply #2. OK."), clock)
	if got := strings.Join(markerNames(t, dir), " "); got != "marker-0-dumb.json marker-0-warn.json nudge-pending.json" {
		t.Errorf("markers %q: the reply written after Stop started was not waited for", got)
	}
	if clock.polls != 4 {
		t.Errorf("%d polls, want 4: the wait ends when the reply is found", clock.polls)
	}
	if strings.Contains(log, "not in the transcript") {
		t.Errorf("log: %s", log)
	}

	// A quiet transcript without the reply: given up after ReplyQuiet; the last reply is used.
	dir = t.TempDir()
	tr = filepath.Join(dir, "t.jsonl")
	os.WriteFile(tr, []byte(reply("Mock reply #1. OK.", 90_000)), 0o600)
	clock = &stopClock{}
	log = runStopClock(t, dir, payload(tr, "Mock reply #9. never written"), clock)
	if clock.slept < pipeline.ReplyQuiet || clock.slept >= pipeline.ReplyWait {
		t.Errorf("waited %v for a reply that never came to a quiet transcript, want about %v", clock.slept, pipeline.ReplyQuiet)
	}
	if !strings.Contains(log, "Stop: the turn's reply was not in the transcript") {
		t.Errorf("no log line: %s", log)
	}
	if got := strings.Join(markerNames(t, dir), " "); got != "marker-0-warn.json" {
		t.Errorf("markers %q, want the 90k warn from the last reply there", got)
	}

	// A transcript still being written (5 MiB, growing at every poll) is waited for up to
	// ReplyWait by the clock, not by a count of polls.
	pad := `{"type":"user","message":{"content":"` + strings.Repeat("x", 1<<10) + `"}}` + "\n"
	appendTo(tr, strings.Repeat(pad, 5<<10))
	clock = &stopClock{onSleep: func(int) { appendTo(tr, `{"type":"attachment"}`+"\n") }}
	runStopClock(t, dir, payload(tr, "Mock reply #9. never written"), clock)
	if clock.slept < pipeline.ReplyWait || clock.slept > pipeline.ReplyWait+100*time.Millisecond {
		t.Errorf("waited %v on a growing transcript, want about %v", clock.slept, pipeline.ReplyWait)
	}

	// A reply text that starts with what JSON escapes cannot be matched: no wait.
	clock = &stopClock{}
	runStopClock(t, dir, payload(tr, `"quoted" start`), clock)
	if clock.polls != 0 {
		t.Errorf("%d polls on an unmatchable reply, want none", clock.polls)
	}
}
