package compactflow

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/zoneline/zoneline/sessions"
	"github.com/zoneline/zoneline/state"
)

func TestDecide(t *testing.T) {
	now := time.Now()
	base := sessions.Entry{Session: state.Session{ID: testSession, Updated: now, Project: "/home/u/api", Pane: "%1"}, Marker: "dumb", Live: true}
	with := func(f func(*sessions.Entry)) sessions.Entry { e := base; f(&e); return e }
	noScreen := errors.New("no pane")
	tests := []struct {
		name      string
		auto      bool
		e         sessions.Entry
		screen    string
		screenErr error
		want      string
	}{
		{"below prep", false, with(func(e *sessions.Entry) { e.Marker = "warn" }), "❯", nil, ActSkip},
		{"no marker", false, with(func(e *sessions.Entry) { e.Marker = "" }), "❯", nil, ActSkip},
		{"idle, notify", false, base, "❯", nil, ActNotify},
		{"imminent, notify", false, with(func(e *sessions.Entry) { e.Marker = "imminent" }), "❯", nil, ActNotify},
		{"screen busy", false, base, "(esc to interrupt)", nil, ActSkip},
		{"prompt after render", true, with(func(e *sessions.Entry) { e.LastPrompt = now.Add(time.Second) }), "❯", nil, ActSkip},
		{"render after prompt, auto allowed", true, with(func(e *sessions.Entry) { e.LastPrompt = now.Add(-time.Second) }), "❯", nil, ActFlow},
		{"auto allowed by glob", true, with(func(e *sessions.Entry) { e.Project = "/work/x" }), "❯", nil, ActFlow},
		{"auto, project not allowed", true, with(func(e *sessions.Entry) { e.Project = "/home/u/web" }), "❯", nil, ActNotify},
		{"auto, no pane", true, with(func(e *sessions.Entry) { e.Pane = ""; e.LastPrompt = now.Add(-time.Second) }), "", noScreen, ActNotify},
		{"unknown idle, no screen", false, with(func(e *sessions.Entry) { e.Pane = "" }), "", noScreen, ActSkip},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &Watcher{Auto: tt.auto, Projects: []string{"/home/u/api", "/work/*"}}
			if d := w.Decide(tt.e, tt.screen, tt.screenErr); d.Action != tt.want {
				t.Fatalf("Decide = %s (%s), want %s", d.Action, d.Reason, tt.want)
			}
		})
	}
}

// TestTickOncePerCrossing: a session idle past its prep tier gets one flow, however many ticks
// and watchers see it; a new epoch (after a compaction re-armed the tiers) may get another.
func TestTickOncePerCrossing(t *testing.T) {
	d := state.Dir{Root: t.TempDir()}
	now := time.Now()
	if err := d.SaveSession(&state.Session{ID: testSession, Updated: now, Zone: "dumb", Project: "/p", Pane: "%1", TmuxSocket: "/s"}); err != nil {
		t.Fatal(err)
	}
	sdir, _ := d.Session(testSession)
	os.WriteFile(filepath.Join(sdir, "marker-0-dumb.json"), []byte(`{"tier":"dumb"}`), 0o600)
	var mu sync.Mutex
	flows := 0
	mk := func() *Watcher {
		return &Watcher{State: d, Tmux: &fakeTmux{screen: idleScreen}, Auto: true, Projects: []string{"/p"}, Now: func() time.Time { return now },
			Flow: func(context.Context, sessions.Entry) error { mu.Lock(); flows++; mu.Unlock(); return nil }}
	}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := mk()
			for j := 0; j < 3; j++ {
				w.Tick(context.Background())
			}
			w.Wait()
		}()
	}
	wg.Wait()
	if flows != 1 {
		t.Fatalf("%d flows, want 1", flows)
	}
	os.WriteFile(filepath.Join(sdir, "epoch-1.json"), []byte(`{}`), 0o600)
	os.WriteFile(filepath.Join(sdir, "marker-1-dumb.json"), []byte(`{"tier":"dumb"}`), 0o600)
	w := mk()
	ds, _ := w.Tick(context.Background())
	w.Wait()
	if flows != 2 || len(ds) != 1 || ds[0].Action != ActFlow {
		t.Fatalf("after a new epoch: %d flows, decisions %+v", flows, ds)
	}
}
