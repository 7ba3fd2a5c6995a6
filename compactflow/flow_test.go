package compactflow

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/state"
)

const testSession = "730c8849-a6f0-454b-a922-063e0b765bf2"

// validCheckpoint passes checkpoint verify for id.
func validCheckpoint(id string) string {
	return `# zoneline checkpoint
session: ` + id + `
model: claude-opus-5-5
cwd: /home/user/project
time: 2026-11-29T22:14:00Z
compactions: 0

## Goal
"Fix the login redirect loop."

## State
- in flight: fix in auth/session.go

## Next
- Action: run ` + "`go test ./auth`" + `
- Expected: TestRedirect passes

## Decisions
none

## Abandoned
none

## Rules
none

## External state
none

## Skills
none

## Pointers
- auth/session.go
`
}

// fakeTmux records every send and plays a scripted Claude Code: react is called after each
// send with its text, under no lock, and may write state files or change the screen.
type fakeTmux struct {
	mu         sync.Mutex
	sends      []string
	screen     string
	captureErr error
	sendErr    map[string]error
	react      func(text string)
}

func (f *fakeTmux) Send(t Target, text string) error {
	f.mu.Lock()
	f.sends = append(f.sends, text)
	err := f.sendErr[text]
	f.mu.Unlock()
	if err != nil {
		return err
	}
	if f.react != nil {
		f.react(text)
	}
	return nil
}

func (f *fakeTmux) Capture(t Target) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.screen, f.captureErr
}

func (f *fakeTmux) setScreen(s string) {
	f.mu.Lock()
	f.screen = s
	f.mu.Unlock()
}

func (f *fakeTmux) sent() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.sends)
}

const idleScreen = "❯ \n  SMART 20k/200k"

type env struct {
	d    state.Dir
	tm   *fakeTmux
	flow *Flow
}

func newEnv(t *testing.T) *env {
	t.Helper()
	d := state.Dir{Root: t.TempDir()}
	if err := d.SaveSession(&state.Session{ID: testSession, Updated: time.Now().Add(-time.Minute), Pane: "%3", TmuxSocket: "/tmp/sock"}); err != nil {
		t.Fatal(err)
	}
	tm := &fakeTmux{screen: idleScreen}
	f := &Flow{
		State: d, Tmux: tm, Session: testSession, Target: Target{Socket: "/tmp/sock", Pane: "%3"},
		Compact: "/compact keep it", PrepWait: 400 * time.Millisecond, CompactWait: 400 * time.Millisecond,
		PostWait: 400 * time.Millisecond, Poll: 5 * time.Millisecond, Settle: 150 * time.Millisecond,
	}
	return &env{d: d, tm: tm, flow: f}
}

// render is a status line render: the registry's update time moves on.
func (e *env) render(t *testing.T) {
	s, _ := e.d.LoadSession(testSession)
	s.Updated = time.Now()
	if err := e.d.SaveSession(s); err != nil {
		t.Error(err)
	}
}

func (e *env) writeCheckpoint(t *testing.T, text string) {
	p, _ := checkpoint.Path(e.d, testSession)
	if err := state.WriteFile(p, []byte(text)); err != nil {
		t.Error(err)
	}
}

// compacted is PostCompact recording a compaction.
func (e *env) compacted(t *testing.T) {
	c, _ := sessions.ReadCompactions(e.d, testSession)
	c.Count++
	data, _ := json.Marshal(c)
	p, _ := e.d.SessionFile(testSession, sessions.CompactionsFile)
	if err := state.WriteFile(p, data); err != nil {
		t.Error(err)
	}
}

// claude is a well-behaved session: each command does its job and the turn ends.
func (e *env) claude(t *testing.T, skip ...string) func(string) {
	return func(text string) {
		switch {
		case slices.Contains(skip, text):
		case text == DefaultPrep:
			e.writeCheckpoint(t, validCheckpoint(testSession))
			e.render(t)
		case strings.HasPrefix(text, "/compact "):
			e.compacted(t)
			e.render(t)
		case text == DefaultPost:
			e.render(t)
		}
	}
}

func TestFlowSucceeds(t *testing.T) {
	e := newEnv(t)
	e.tm.react = e.claude(t)
	if err := e.flow.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got, want := e.tm.sent(), []string{"/compact-prep", "/compact keep it", "/postcompact"}; !slices.Equal(got, want) {
		t.Fatalf("sent %q, want %q", got, want)
	}
}

// TestFlowFailures runs each failure branch and checks the step reported, the reason, the
// screen quoted, and that nothing was sent after the failed step.
func TestFlowFailures(t *testing.T) {
	tests := []struct {
		name     string
		setup    func(t *testing.T, e *env)
		wantStep string
		wantErr  string
		wantSent []string
	}{
		{
			name:     "pane busy before the start",
			setup:    func(t *testing.T, e *env) { e.tm.screen = "✻ Working… (esc to interrupt)" },
			wantStep: StepPreflight, wantErr: "mid-turn", wantSent: nil,
		},
		{
			name: "prompt newer than the last render",
			setup: func(t *testing.T, e *env) {
				if err := sessions.RecordPrompt(e.d, testSession, "p1", time.Now()); err != nil {
					t.Fatal(err)
				}
			},
			wantStep: StepPreflight, wantErr: "prompt was submitted after its last render", wantSent: nil,
		},
		{
			name:     "pane cannot be read",
			setup:    func(t *testing.T, e *env) { e.tm.captureErr = errors.New("can't find pane: %3") },
			wantStep: StepPreflight, wantErr: "cannot read the pane", wantSent: nil,
		},
		{
			name:     "send of /compact-prep fails",
			setup:    func(t *testing.T, e *env) { e.tm.sendErr = map[string]error{"/compact-prep": errors.New("no server")} },
			wantStep: StepSendPrep, wantErr: "no server", wantSent: []string{"/compact-prep"},
		},
		{
			name: "checkpoint missing, turn ended",
			setup: func(t *testing.T, e *env) {
				e.tm.react = func(string) { e.render(t) }
			},
			wantStep: StepCheckpoint, wantErr: "no checkpoint at", wantSent: []string{"/compact-prep"},
		},
		{
			name: "checkpoint missing, timeout while busy",
			setup: func(t *testing.T, e *env) {
				e.tm.react = func(string) { e.tm.setScreen("✻ Thinking… (esc to interrupt)") }
			},
			wantStep: StepCheckpoint, wantErr: "timed out after 400ms: no checkpoint at", wantSent: []string{"/compact-prep"},
		},
		{
			name: "checkpoint fails verify",
			setup: func(t *testing.T, e *env) {
				e.tm.react = func(string) {
					e.writeCheckpoint(t, strings.Replace(validCheckpoint(testSession), "## Next", "## Nxt", 1))
					e.render(t)
				}
			},
			wantStep: StepCheckpoint, wantErr: "fails checkpoint verify", wantSent: []string{"/compact-prep"},
		},
		{
			name: "checkpoint of another session",
			setup: func(t *testing.T, e *env) {
				e.tm.react = func(string) {
					e.writeCheckpoint(t, validCheckpoint("11111111-2222-3333-4444-555555555555"))
					e.render(t)
				}
			},
			wantStep: StepCheckpoint, wantErr: "belongs to another session", wantSent: []string{"/compact-prep"},
		},
		{
			name: "checkpoint older than the flow",
			setup: func(t *testing.T, e *env) {
				e.writeCheckpoint(t, validCheckpoint(testSession))
				p, _ := checkpoint.Path(e.d, testSession)
				old := time.Now().Add(-time.Hour)
				os.Chtimes(p, old, old)
				e.tm.react = func(string) { e.render(t) }
			},
			wantStep: StepCheckpoint, wantErr: "before the flow started", wantSent: []string{"/compact-prep"},
		},
		{
			name: "valid checkpoint but the turn never ends",
			setup: func(t *testing.T, e *env) {
				e.tm.react = func(string) {
					e.writeCheckpoint(t, validCheckpoint(testSession))
					e.tm.setScreen("✻ Running zoneline checkpoint verify… (esc to interrupt)")
				}
			},
			wantStep: StepCheckpoint, wantErr: "passes verify but the turn has not ended", wantSent: []string{"/compact-prep"},
		},
		{
			name:     "compaction not recorded",
			setup:    func(t *testing.T, e *env) { e.tm.react = e.claude(t, "/compact keep it") },
			wantStep: StepCompaction, wantErr: "timed out after 400ms: the hooks recorded no compaction", wantSent: []string{"/compact-prep", "/compact keep it"},
		},
		{
			name: "compaction blocked by PreCompact",
			setup: func(t *testing.T, e *env) {
				ok := e.claude(t, "/compact keep it")
				e.tm.react = func(text string) {
					ok(text)
					if strings.HasPrefix(text, "/compact ") {
						e.tm.setScreen("Compaction blocked by PreCompact hook: [zoneline hook]:\nno fresh checkpoint")
					}
				}
			},
			wantStep: StepCompaction, wantErr: "blocked by a PreCompact hook", wantSent: []string{"/compact-prep", "/compact keep it"},
		},
		{
			name: "send of /compact fails",
			setup: func(t *testing.T, e *env) {
				e.tm.react = e.claude(t)
				e.tm.sendErr = map[string]error{"/compact keep it": errors.New("pane gone")}
			},
			wantStep: StepSendCmp, wantErr: "pane gone", wantSent: []string{"/compact-prep", "/compact keep it"},
		},
		{
			name: "postcompact report never comes",
			setup: func(t *testing.T, e *env) {
				ok := e.claude(t, DefaultPost)
				e.tm.react = func(text string) {
					ok(text)
					if text == DefaultPost {
						e.tm.setScreen("✻ Reading the checkpoint… (esc to interrupt)")
					}
				}
			},
			wantStep: StepReport, wantErr: "timed out after 400ms", wantSent: []string{"/compact-prep", "/compact keep it", "/postcompact"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.tm.react = e.claude(t)
			tt.setup(t, e)
			err := e.flow.Run(context.Background())
			var se *StepError
			if !errors.As(err, &se) {
				t.Fatalf("Run = %v, want a *StepError", err)
			}
			if se.Step != tt.wantStep {
				t.Errorf("failed at step %q, want %q (%v)", se.Step, tt.wantStep, err)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not contain %q", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), "nothing more was sent to pane %3") {
				t.Errorf("error does not say nothing more was sent: %q", err)
			}
			if e.tm.captureErr == nil && !strings.Contains(err.Error(), "the pane shows:\n  | ") {
				t.Errorf("error does not quote the pane: %q", err)
			}
			// Nothing more after the failed step, even a while later.
			time.Sleep(20 * time.Millisecond)
			if got := e.tm.sent(); !slices.Equal(got, tt.wantSent) {
				t.Errorf("sent %q, want exactly %q", got, tt.wantSent)
			}
		})
	}
}

// TestFlowScreenFallback: no status line render ever comes (no statusline installed), so the
// end of each turn is read from the screen: not busy and unchanged for Settle.
func TestFlowScreenFallback(t *testing.T) {
	e := newEnv(t)
	e.tm.react = func(text string) {
		switch {
		case text == DefaultPrep:
			e.writeCheckpoint(t, validCheckpoint(testSession))
		case strings.HasPrefix(text, "/compact "):
			e.compacted(t)
		}
	}
	if err := e.flow.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if n := len(e.tm.sent()); n != 3 {
		t.Fatalf("sent %d commands, want 3", n)
	}
}

func TestFlowCancelled(t *testing.T) {
	e := newEnv(t)
	e.tm.react = func(string) { e.tm.setScreen("(esc to interrupt)") }
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	err := e.flow.Run(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
	if got := e.tm.sent(); !slices.Equal(got, []string{"/compact-prep"}) {
		t.Fatalf("sent %q", got)
	}
}

func TestPlan(t *testing.T) {
	e := newEnv(t)
	plan := strings.Join(e.flow.Plan(), "\n")
	for _, want := range []string{`"/compact-prep"`, `"/compact keep it"`, `"/postcompact"`, "-S /tmp/sock send-keys -t %3 -l", "checkpoint.md", "compactions.json", "400ms", "send nothing more"} {
		if !strings.Contains(plan, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan)
		}
	}
	if len(e.tm.sent()) != 0 {
		t.Fatal("Plan sent something")
	}
}

func TestLock(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	tg := Target{Socket: "/tmp/s", Pane: "%1"}
	now := time.Now()
	release, err := Lock(d, tg, testSession, time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(d, tg, testSession, time.Hour, now); !errors.Is(err, ErrBusy) {
		t.Fatalf("second Lock = %v, want ErrBusy", err)
	}
	// Another pane, another server: free.
	for _, other := range []Target{{Socket: "/tmp/s", Pane: "%2"}, {Socket: "/tmp/other", Pane: "%1"}} {
		r, err := Lock(d, other, testSession, time.Hour, now)
		if err != nil {
			t.Fatalf("Lock(%v) = %v", other, err)
		}
		r()
	}
	release()
	r2, err := Lock(d, tg, testSession, time.Hour, now)
	if err != nil {
		t.Fatalf("Lock after release = %v", err)
	}
	// A stale lock (older than the flow's max time) is taken over.
	if _, err := Lock(d, tg, testSession, time.Minute, now.Add(2*time.Minute)); err != nil {
		t.Fatalf("Lock over a stale lock = %v", err)
	}
	r2()
	if fi, err := os.Stat(filepath.Dir(LockPath(d, tg))); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("lock dir: %v %v", fi, err)
	}
}

// TestLockRace: of many flows racing for one pane exactly one gets it.
func TestLockRace(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	tg := Target{Socket: "/tmp/s", Pane: "%1"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Lock(d, tg, testSession, time.Hour, time.Now()); err == nil {
				mu.Lock()
				won++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("%d flows got the lock, want 1", won)
	}
}

// TestBusyDialog: a permission dialog counts as busy, so no keys are sent into it (an Enter
// would approve the tool call).
func TestBusyDialog(t *testing.T) {
	dialog := "Bash command\n  rm -rf build\nDo you want to proceed?\n❯ 1. Yes\n  2. No, and tell Claude what to do differently (esc)\n"
	if !Busy(dialog) {
		t.Error("a permission dialog is not busy")
	}
	if Busy("● Mock reply #3. OK.\n\n╭────╮\n│ >  │\n╰────╯\n") {
		t.Error("an idle prompt is busy")
	}
}
