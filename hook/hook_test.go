package hook

import (
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/state"
)

func TestEventsHaveHandlers(t *testing.T) {
	for _, e := range Events() {
		if handlerFor(e) == nil {
			t.Errorf("%s listed without a handler", e)
		}
	}
	for _, e := range []string{"", "stop", "Notification", "PreToolUse", "userpromptsubmit"} {
		if handlerFor(e) != nil {
			t.Errorf("%q has a handler", e)
		}
	}
}

// runWithin runs fn under a new Guard of d and stops it.
func runWithin(d time.Duration, giveUp func(), fn func() (Output, error)) (Output, error, bool) {
	g := StartGuard(state.Dir{}, d, giveUp)
	defer g.g.Stop()
	return g.run(fn)
}

func TestRunWithin(t *testing.T) {
	never := func() { t.Error("gave up on a handler within its deadline") }
	out, err, ok := runWithin(time.Second, never, func() (Output, error) { return Output{Text: "hi"}, nil })
	if !ok || err != nil || out.Text != "hi" {
		t.Errorf("in time: %+v %v %v", out, err, ok)
	}
	out, err, ok = runWithin(time.Second, never, func() (Output, error) { panic("boom") })
	if !ok || err == nil || !strings.Contains(err.Error(), "panic: boom") || out.Text != "" {
		t.Errorf("panic: %+v %v %v", out, err, ok)
	}
	gaveUp := make(chan struct{})
	release := make(chan struct{})
	start := time.Now()
	_, _, ok = runWithin(20*time.Millisecond, func() { close(gaveUp); close(release) }, func() (Output, error) {
		<-release // a handler stuck on a slow disk, until the process would end
		return Output{Text: "late"}, nil
	})
	select {
	case <-gaveUp:
	default:
		t.Fatal("no give-up after the deadline")
	}
	if ok {
		t.Error("a handler that outlived its deadline may still print")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("gave up after %v", d)
	}
}
