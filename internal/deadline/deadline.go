// Package deadline bounds a whole statusline or hook process: a Guard is started first thing,
// before stdin is read, and when the deadline passes it runs an action that ends the process
// (printing a fallback answer when the real one was not printed yet). One timer, no goroutine
// of its own until it fires.
package deadline

import (
	"sync/atomic"
	"time"
)

// Guard is one process's deadline.
type Guard struct {
	state   atomic.Int32 // 0 running, 1 answered, 2 expired before the answer
	timer   *time.Timer
	expired chan struct{}
}

// Start starts a Guard that runs expire after d, from the timer's goroutine, while the process
// still runs. answered tells whether Answer was called first: expire is to print a fallback
// answer only when it was not, and then to end the process.
func Start(d time.Duration, expire func(answered bool)) *Guard {
	g := &Guard{expired: make(chan struct{})}
	g.timer = time.AfterFunc(d, func() {
		if g.state.CompareAndSwap(0, 2) {
			expire(false)
			close(g.expired)
			return
		}
		expire(true)
	})
	return g
}

// Answer reports whether the process may still print its answer: true once, when the deadline
// has not passed. After a false, the expire action owns the output and ends the process: the
// caller must print nothing and may Wait for it.
func (g *Guard) Answer() bool { return g.state.CompareAndSwap(0, 1) }

// Extend moves the deadline to d from now, when the timer has not fired yet (it reports
// whether it did): a statusline that wraps the user's own status line command gives it its
// own deadline.
func (g *Guard) Extend(d time.Duration) bool {
	if g.state.Load() != 0 || !g.timer.Stop() {
		return false
	}
	g.timer.Reset(d)
	return true
}

// Stop stops the timer: nothing runs at the deadline any more.
func (g *Guard) Stop() { g.timer.Stop() }

// Wait blocks the caller after a false Answer until expire, which ends the process, is done;
// it returns when expire returns (as a test's expire does).
func (g *Guard) Wait() {
	<-g.expired
}
