package hookevent

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
	defer g.stop()
	return g.run(fn)
}

func TestRunWithin(t *testing.T) {
	never := func() { t.Error("gave up on a handler within its deadline") }
	// An hour: a deadline no test run reaches, however busy the machine (the deadline's own
	// firing is the third case's, driven by events).
	out, err, ok := runWithin(time.Hour, never, func() (Output, error) { return Output{Text: "hi"}, nil })
	if !ok || err != nil || out.Text != "hi" {
		t.Errorf("in time: %+v %v %v", out, err, ok)
	}
	out, err, ok = runWithin(time.Hour, never, func() (Output, error) { panic("boom") })
	if !ok || err == nil || !strings.Contains(err.Error(), "panic: boom") || out.Text != "" {
		t.Errorf("panic: %+v %v %v", out, err, ok)
	}
	gaveUp := make(chan struct{})
	release := make(chan struct{})
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
}
