package deadline

import (
	"testing"
	"time"
)

func TestGuard(t *testing.T) {
	// Answered in time: the answer is the process's; the expiry, if it comes, knows it.
	got := make(chan bool, 1)
	g := Start(20*time.Millisecond, func(answered bool) { got <- answered })
	if !g.Answer() {
		t.Fatal("Answer before the deadline = false")
	}
	if g.Answer() {
		t.Error("a second Answer = true")
	}
	if answered := <-got; !answered {
		t.Error("expire after the answer was told answered = false")
	}

	// Too late: the expiry owns the output, Answer is false, Wait returns once expire did.
	done := make(chan struct{})
	g = Start(10*time.Millisecond, func(answered bool) {
		if answered {
			t.Error("expire before any answer was told answered = true")
		}
		close(done)
	})
	time.Sleep(50 * time.Millisecond)
	<-done
	if g.Answer() {
		t.Error("Answer after the deadline = true")
	}
	g.Wait()

	// Stopped: nothing runs.
	g = Start(10*time.Millisecond, func(bool) { t.Error("expire ran after Stop") })
	g.Stop()
	time.Sleep(30 * time.Millisecond)
}

func TestGuardExtend(t *testing.T) {
	fired := make(chan bool, 2)
	g := Start(50*time.Millisecond, func(answered bool) { fired <- answered })
	start := time.Now()
	if !g.Extend(300 * time.Millisecond) {
		t.Fatal("Extend refused before the deadline")
	}
	answered := <-fired
	if d := time.Since(start); d < 250*time.Millisecond || answered {
		t.Errorf("fired after %v (answered %v), want about 300ms, unanswered", d, answered)
	}
	if g.Extend(time.Second) {
		t.Error("Extend after the deadline fired")
	}
	select {
	case <-fired:
		t.Error("fired twice")
	case <-time.After(100 * time.Millisecond):
	}
}
